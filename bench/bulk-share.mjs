// Bulk share: `loanctl user create --from` against the sandbox's own POST capacity,
// measured side by side in one run. The capacity is autocannon's POST /api/v1/user at as many
// connections as the bulk run's --concurrency (8), each body a new borrower, in slices between the
// bulk runs: slice, run, slice, run, slice, run, slice. Each run's share is its rows/s over the
// mean of the slices on either side of it (drift in the machine's load hits both), and the figure
// is the median of the three. Each run is timed whole, from its spawn to its exit, on a file of
// SHARE_ROWS: an operator's large file, where the two Node starts and the exit (~150 ms) are ~1.5 %
// of the run. autocannon's figure has no start-up in it at all; a 10,000-row file's has ~7 %, and
// its share is reported beside the goal's. The bulk runs write their results to a file, as an
// operator keeps a large run's (`> results.ndjson`); a run whose results the bench reads from a
// pipe line by line as they come (a third process on the two cores) is reported beside it.
// The goal: ≥ 70 % (docs/performance.md).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loanctlFrom, ndjson, user } from './bulk.mjs';
import { BIN, cliEnv, loadAverage, median, NODE, startServer, tempDir, which } from './lib.mjs';
import { newUserRequests, slice } from './throughput.mjs';

const CONNECTIONS = 8;
/** The rows of the goal's runs. */
export const SHARE_ROWS = 50_000;

export async function bulkShare({ quick }) {
  const total = quick ? 3_000 : SHARE_ROWS;
  const shortRows = quick ? 2_000 : 10_000;
  const seconds = quick ? 3 : 4;
  const rounds = quick ? 1 : 3;
  // The share moves with the machine's load (two cores, shared): said beside the figure.
  const loadBefore = loadAverage();
  const home = tempDir('bulk-share');
  const server = await startServer();
  try {
    // Written before the first slice: no file is written between a slice and its run.
    const usersFile = (tag, rows = total) => {
      const file = join(home.dir, `${tag}-users.ndjson`);
      writeFileSync(file, ndjson(Array.from({ length: rows }, (_, i) => user(tag, i + 1))));
      return { file, rows };
    };
    const bulkRun = async ({ file, rows }, options) => ({
      ...(await loanctlFrom(server, file, home.dir, options)),
      rows,
    });
    const files = Array.from({ length: rounds }, (_, round) => usersFile(`share${round}`));
    const piped = usersFile('piped');
    const short = usersFile('short', shortRows);
    const capacity = (tag) => postCapacity(server, tag, seconds);
    // A sandbox's first seconds of load are slower (its code not yet compiled): not a slice.
    await capacity('warm');
    const slices = [await capacity('slice0')];
    const runs = [];
    for (const [round, file] of files.entries()) {
      runs.push(await bulkRun(file, { resultsFile: join(home.dir, `results${round}.ndjson`) }));
      slices.push(await capacity(`slice${round + 1}`));
    }
    // Each of these between the last slice and one more.
    const between = async (tag, run) => {
      const done = await run();
      slices.push(await capacity(tag));
      return { ...done, share: shareBetween(rateOf(done), slices.at(-2).rps, slices.at(-1).rps) };
    };
    const shortRun = await between('slice-short', () =>
      bulkRun(short, { resultsFile: join(home.dir, 'results-short.ndjson') }),
    );
    // After the figure's runs, so the pipe's reader never runs beside them.
    const pipedRun = await bulkRun(piped);
    for (const { counts, summary, rows } of [...runs, pipedRun, shortRun]) {
      if (counts.success !== rows) {
        throw new Error(`expected ${rows} users created, got ${JSON.stringify(counts)}: ${summary}`);
      }
    }
    const fresh = join(home.dir, 'more-users.ndjson');
    const cpuRows = Math.max(shortRows / 2, 2_000);
    writeFileSync(fresh, ndjson(Array.from({ length: cpuRows }, (_, i) => user('cpu', i + 1))));
    const cpu = clientCpu(server, fresh, home.dir);
    const shares = runs.map((run, round) => shareBetween(rateOf(run), slices[round].rps, slices[round + 1].rps));
    const share = median(shares);
    const meanCapacity = slices.reduce((sum, { rps }) => sum + rps, 0) / slices.length;
    const pipedRate = rateOf(pipedRun);
    const ms = (run) => `${Math.round(run.elapsed)} ms`;
    return {
      lines: [
        `  sandbox's own POST /api/v1/user capacity, autocannon at ${CONNECTIONS} connections, slices between the runs: ${slices.map(({ rps }) => Math.round(rps)).join(', ')} req/s`,
        `  loanctl user create --from (${total} rows, --concurrency ${CONNECTIONS}) > results file: ${runs.map((run) => Math.round(rateOf(run))).join(', ')} rows/s = ${shares.map((value) => `${value.toFixed(0)} %`).join(', ')} of the slices beside each; median ${share.toFixed(0)} %`,
        `  the same on ${shortRows} rows, whose share the start-up weighs on more: ${Math.round(rateOf(shortRun))} rows/s in ${ms(shortRun)} = ${shortRun.share.toFixed(0)} % of the slices beside it`,
        `  the same, its results read by the bench from a pipe as they come: ${Math.round(pipedRate)} rows/s = ${((100 * pipedRate) / meanCapacity).toFixed(0)} % of the slices' mean`,
        cpu === undefined
          ? '  (no /usr/bin/time: client CPU not measured)'
          : `  client CPU (user + system) of loanctl creating ${cpuRows} more: ${Math.round((cpu * 1e6) / cpuRows)} µs a row`,
        `  load average ${loadBefore} before, ${loadAverage()} after`,
      ],
      figures: [
        {
          figure: `bulk ${total} users: share of the sandbox's POST capacity (median of ${rounds})`,
          measured: `${share.toFixed(0)} %`,
          goalText: '≥ 70 %',
          holds: share >= 70,
        },
        {
          figure: `  the same on a ${shortRows}-row file, whose share its start-up weighs on more`,
          measured: `${shortRun.share.toFixed(0)} %`,
          goalText: '— (reported)',
          holds: null,
        },
        {
          figure: '  the same, its results read from a pipe line by line as they come',
          measured: `${((100 * pipedRate) / meanCapacity).toFixed(0)} %`,
          goalText: '— (reported)',
          holds: null,
        },
      ],
    };
  } finally {
    await server.stop();
    home.cleanup();
  }
}

/** The CPU time loanctl itself spends on a file of new users: what the machine's load changes least. */
function clientCpu(server, file, home) {
  if (!which('/usr/bin/time')) return undefined;
  const result = spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', NODE, BIN, 'user', 'create', '--from', file], {
    env: cliEnv(server, home),
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 240_000,
  });
  const match = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(result.stderr ?? '');
  return match ? Number(match[1]) + Number(match[2]) : undefined;
}

/** A run's rows a second, from its spawn to its exit. */
const rateOf = (run) => run.rows / (run.elapsed / 1000);

/** A run's rate as a share (%) of the mean of the capacity slices before and after it. */
export function shareBetween(rate, before, after) {
  return (200 * rate) / (before + after);
}

/** The sandbox's POST /api/v1/user capacity: autocannon at CONNECTIONS connections, each body a new borrower. */
export function postCapacity(server, tag, seconds) {
  return slice(
    `POST user ${tag}`,
    {
      url: `${server.url}/api/v1/user`,
      method: 'POST',
      headers: { authorization: `Bearer ${server.api_key}`, 'content-type': 'application/json' },
      requests: newUserRequests(tag),
    },
    CONNECTIONS,
    seconds,
  );
}

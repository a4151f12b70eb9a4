// Bulk share (issue 24): `loanctl user create --from` against the sandbox's own POST capacity,
// measured side by side in one run. The capacity is autocannon's POST /api/v1/user at as many
// connections as the bulk run's --concurrency (8), each body a new borrower, in one slice before
// and one after the bulk runs (drift in the machine's load hits both); the share is the bulk run's
// rows/s over the mean of the two. The bulk run writes its results to a file, as an operator keeps
// a large run's (`> results.ndjson`); a second run whose results the bench reads from a pipe line
// by line as they come (a third process on the two cores) is reported beside it. The goal: ≥ 70 %. What the grouped journal appends bought is in
// bench/README.md ("Bulk share").
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { loanctlFrom, ndjson, user } from './bulk.mjs';
import { BIN, cliEnv, NODE, startServer, tempDir, which } from './lib.mjs';
import { newUserRequests, slice } from './throughput.mjs';

const CONNECTIONS = 8;

export async function bulkShare({ quick }) {
  const total = quick ? 3_000 : 10_000;
  const seconds = quick ? 3 : 5;
  // The share moves with the machine's load (two cores, shared): said beside the figure.
  const loadBefore = loadAverage();
  const home = tempDir('bulk-share');
  const server = await startServer();
  try {
    const file = join(home.dir, 'users.ndjson');
    writeFileSync(file, ndjson(Array.from({ length: total }, (_, i) => user('share', i + 1))));
    const target = {
      url: `${server.url}/api/v1/user`,
      method: 'POST',
      headers: { authorization: `Bearer ${server.api_key}`, 'content-type': 'application/json' },
      requests: newUserRequests(),
    };
    const piped = join(home.dir, 'piped-users.ndjson');
    writeFileSync(piped, ndjson(Array.from({ length: total }, (_, i) => user('piped', i + 1))));
    const before = await slice('POST user before', target, CONNECTIONS, seconds);
    // The figure's run first, so the pipe's reader never runs beside it.
    const run = await loanctlFrom(server, file, home.dir, { resultsFile: join(home.dir, 'results.ndjson') });
    const pipedRun = await loanctlFrom(server, piped, home.dir);
    const after = await slice(
      'POST user after',
      { ...target, requests: newUserRequests('late') },
      CONNECTIONS,
      seconds,
    );
    for (const { counts, summary } of [run, pipedRun]) {
      if (counts.success !== total) {
        throw new Error(`expected ${total} users created, got ${JSON.stringify(counts)}: ${summary}`);
      }
    }
    const fresh = join(home.dir, 'more-users.ndjson');
    const cpuRows = total / 2;
    writeFileSync(fresh, ndjson(Array.from({ length: cpuRows }, (_, i) => user('cpu', i + 1))));
    const cpu = clientCpu(server, fresh, home.dir);
    const capacity = (before.rps + after.rps) / 2;
    const rate = total / (run.elapsed / 1000);
    const share = (100 * rate) / capacity;
    const pipedRate = total / (pipedRun.elapsed / 1000);
    return {
      lines: [
        `  sandbox's own POST /api/v1/user capacity, autocannon at ${CONNECTIONS} connections: ${Math.round(before.rps)} req/s before, ${Math.round(after.rps)} after the bulk run`,
        `  loanctl user create --from (${total} rows, --concurrency ${CONNECTIONS}) > results file: ${Math.round(rate)} rows/s = ${share.toFixed(0)} % of the mean capacity`,
        `  the same, its results read by the bench from a pipe as they come: ${Math.round(pipedRate)} rows/s = ${((100 * pipedRate) / capacity).toFixed(0)} %`,
        cpu === undefined
          ? '  (no /usr/bin/time: client CPU not measured)'
          : `  client CPU (user + system) of loanctl creating ${cpuRows} more: ${Math.round((cpu * 1e6) / cpuRows)} µs a row`,
        `  load average ${loadBefore} before, ${loadAverage()} after`,
      ],
      figures: [
        {
          figure: `bulk ${total} users: share of the sandbox's POST capacity`,
          measured: `${share.toFixed(0)} %`,
          goalText: '≥ 70 %',
          holds: share >= 70,
        },
        {
          figure: '  the same, its results read from a pipe line by line as they come',
          measured: `${((100 * pipedRate) / capacity).toFixed(0)} %`,
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

function loadAverage() {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}

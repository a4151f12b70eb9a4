// Flat at a million: `npm run bench -- --huge`. Two sandboxes, one grown to 1,000 and
// one to 1,000,000 (bench/sandbox-server.ts --huge): in each, an organisation whose borrowers were
// created over the past year (and as many loan requests), and one whose borrowers were all
// created today. Measured side by side, each figure next to its goal:
//   - the user list inside a date window, first and last page (the year; and "today", when every
//     borrower was created today): 1,000,000 ≤ 1.5 × 1,000, medians of interleaved requests;
//   - `loan create --user` the newest borrower of "today" by e-mail: ≤ 20 requests; the same
//     borrower again (the local index): 1 request and ≤ 0.5 s;
//   - `loan create --from` 100 rows keyed by the 50 newest e-mails of "today": ≤ 20 requests before the
//     first row (no walk of the user list) and peak RSS ≤ 150 MB at 1,000,000;
//   - `loan list --all -o ndjson` over 1,000,000 loan requests: peak RSS at most 1.25 x that of the
//     same walk over its last 100,000 (the filtered form reported);
//   - `user show REFERENCE` of a reference never seen: said at once (bench/lookup.mjs measures the
//     look-ups by e-mail and phone).
// Requests are counted from --debug's request lines (`debug: > GET …`).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cliEnv, median, ms, NODE, startServer, tempDir } from './lib.mjs';
import { measure } from './stream.mjs';

const count = (n) => n.toLocaleString('en-GB');
const isoDay = (date) => date.toISOString().slice(0, 10);

/** One GET's latency in ms, the whole reply read (fetch keeps the connection alive). */
async function timedGet(url, key) {
  const start = process.hrtime.bigint();
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status}`);
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, users: JSON.parse(body).data.length };
}

/** The last non-empty page of a window (bisecting), so the bench asks for the real last page. */
async function lastPage(url, key, query) {
  const has = async (page) => (await timedGet(`${url}/api/v1/user?${query}&pages=${page}`, key)).users > 0;
  let low = 1;
  let high = 2;
  while (await has(high)) [low, high] = [high, high * 2];
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (await has(middle)) low = middle;
    else high = middle;
  }
  return low;
}

/**
 * Runs the CLI; its exit code, output, seconds and (with `debug`, which costs a line on stderr per
 * request, so timed walks go without it) the API requests it sent.
 */
function cli(env, argv, { debug = true } = {}) {
  const started = process.hrtime.bigint();
  const args = [BIN, ...argv, ...(debug ? ['--debug'] : [])];
  const result = spawnSync(NODE, args, { env, encoding: 'utf8', timeout: 300_000 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const requests = result.stderr.split('\n').filter((line) => /^debug: > (GET|POST) /.test(line));
  return { status: result.status, stderr: result.stderr, stdout: result.stdout, seconds, requests };
}

function expectExit(run, status, what) {
  if (run.status !== status) throw new Error(`${what}: exit ${run.status}: ${run.stderr.slice(-1500)}`);
}

export async function huge({ quick }) {
  // --quick: 100,000 instead of 1,000,000, for a look at the bench itself in a minute.
  const [small, large] = quick ? [1_000, 100_000] : [1_000, 1_000_000];
  const SIZES = [small, large];
  const LARGE = count(large);
  const rounds = quick ? 5 : 15;
  const servers = {};
  // Each line is printed as soon as it is measured (a run this long that fails late keeps what it
  // measured before); the section returns none for run.mjs to print again.
  const say = (...texts) => console.log(texts.join('\n'));
  const figures = [];
  const home = tempDir('huge');
  try {
    for (const size of SIZES) {
      const started = Date.now();
      servers[size] = await startServer({ huge: size });
      say(
        `  ${count(size).padStart(9)}: 2 x ${count(size)} borrowers and ${count(size)} loan requests grown, served in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    }

    // 1. The user list inside a date window.
    const today = isoDay(new Date());
    const yearAgo = isoDay(new Date(Date.now() - 366 * 86_400_000));
    const windows = [
      { name: 'the year', org: (server) => server, query: `start=${yearAgo}&end=${today}` },
      { name: 'all created today', org: (server) => server.today, query: `start=${today}` },
    ];
    const cases = [];
    for (const size of SIZES) {
      for (const window of windows) {
        const server = servers[size];
        const key = window.org(server).api_key;
        const last = await lastPage(server.url, key, window.query);
        for (const [which, page] of [
          ['first', 1],
          ['last', last],
        ]) {
          cases.push({
            size,
            window: window.name,
            which,
            key,
            url: `${server.url}/api/v1/user?${window.query}&pages=${page}`,
          });
        }
      }
    }
    const samples = new Map(cases.map((c) => [c, []]));
    for (let round = -2; round < rounds; round++) {
      const shift = ((round % cases.length) + cases.length) % cases.length;
      for (const c of [...cases.slice(shift), ...cases.slice(0, shift)]) {
        for (let i = 0; i < 20; i++) {
          const { ms: latency } = await timedGet(c.url, c.key);
          if (round >= 0) samples.get(c).push(latency);
        }
      }
    }
    const medianOf = (size, window, which) =>
      median(samples.get(cases.find((c) => c.size === size && c.window === window && c.which === which)));
    for (const window of windows) {
      for (const which of ['first', 'last']) {
        const low = medianOf(small, window.name, which);
        const high = medianOf(large, window.name, which);
        say(`  window ${window.name}, ${which} page: ${ms(low)} at 1,000, ${ms(high)} at ${LARGE}`);
        figures.push({
          figure: `user list, window ${window.name}, ${which} page: ${LARGE} / 1,000`,
          measured: `${(high / low).toFixed(2)} x (${ms(high)} vs ${ms(low)})`,
          goalText: '≤ 1.5 x',
          holds: high / low <= 1.5,
        });
      }
    }

    // 2. The newest borrower of "today" by e-mail, then again (the local index).
    for (const size of SIZES) {
      const server = servers[size];
      const env = cliEnv({ url: server.url, ...server.today }, home.dir);
      const create = ['loan', 'create', '--user', `borrower-${size}@today.example`, '--amount', '50000'];
      const runs = ['first', 'seen before'].map((run) => {
        const done = cli(env, [...create, '--purpose', `bench ${run}`, '-o', 'json']);
        expectExit(done, 0, `loan create --user (${run})`);
        const lookups = done.requests.filter((line) => /^debug: > GET .*\/api\/v1\/user/.test(line)).length;
        say(
          `  ${count(size)}: loan create --user <newest, all created today>, ${run}: ${lookups} requests to find the id, ${done.seconds.toFixed(2)} s`,
        );
        return { lookups, seconds: done.seconds };
      });
      if (size === large) {
        const [first, again] = runs;
        figures.push({
          figure: `loan create --user <newest of ${LARGE} created today>: look-up requests`,
          measured: `${first.lookups} (${first.seconds.toFixed(2)} s in all)`,
          goalText: '≤ 20',
          holds: first.lookups <= 20,
        });
        figures.push({
          figure: `the same borrower again (local index), ${LARGE}`,
          measured: `${again.lookups} request, ${again.seconds.toFixed(2)} s in all`,
          goalText: '1 request, ≤ 0.5 s',
          holds: again.lookups === 1 && again.seconds <= 0.5,
        });
      }
    }

    // 2b. `loan create --from` keyed by e-mail: each distinct e-mail resolved by the look-up, no
    // walk of the user list before the first row; its memory at the large size.
    const keyed = {};
    for (const size of SIZES) {
      const server = servers[size];
      const file = join(home.dir, `loans-${size}.csv`);
      // The 50 newest borrowers (a day's new customers, the usual file), two rows each. One deep in a
      // day of 100,000 new borrowers costs a walk of that day's pages (the API has no search): bench/README.
      const emails = Array.from({ length: 50 }, (_, k) => `borrower-${size - k}@today.example`);
      const rows = [...emails, ...emails].map((email, i) => `${email},${5000 + i},bench keyed ${i}`);
      writeFileSync(file, `user,amount,purpose\n${rows.join('\n')}\n`);
      const run = await measure({ url: server.url, ...server.today }, home, [
        'loan',
        'create',
        '--from',
        file,
        '--debug',
      ]);
      const lines = run.stderr.split('\n');
      const firstPost = lines.findIndex((line) => /^debug: > POST .*\/loan_request/.test(line));
      const before = lines.slice(0, firstPost).filter((line) => /^debug: > GET .*\/api\/v1\/user/.test(line)).length;
      keyed[size] = { before, ...run };
      say(
        `  ${count(size)}: loan create --from 100 rows keyed by the 50 newest e-mails: ${before} look-up requests before the first row, ${run.seconds.toFixed(1)} s, peak RSS ${run.peakMb.toFixed(0)} MB`,
      );
    }
    figures.push({
      figure: `loan create --from, keyed by e-mail, ${LARGE} borrowers: requests before the first row`,
      measured: `${keyed[large].before} (1,000: ${keyed[small].before})`,
      goalText: '≤ 20 (no walk)',
      holds: keyed[large].before <= 20,
    });
    figures.push({
      figure: `loan create --from, keyed by e-mail, ${LARGE} borrowers: peak RSS`,
      measured: `${keyed[large].peakMb.toFixed(0)} MB (${keyed[large].seconds.toFixed(1)} s for 100 rows)`,
      goalText: '≤ 150 MB',
      holds: keyed[large].peakMb > 0 && keyed[large].peakMb <= 150,
    });

    // 3. Streaming memory over 1,000,000 loan requests.
    const big = servers[large];
    // A million rows take minutes on a busy machine: 20 minutes each before giving up.
    const long = { timeoutMs: 1_200_000 };
    const all = await measure(big, home, ['loan', 'list', '--all', '-o', 'ndjson'], long);
    // The same walk over a tenth of the rows, in the same organisation: the last tenth by id.
    const tenth = Math.floor(large / 10);
    const tail = await measure(
      big,
      home,
      ['loan', 'list', '--all', '--direction', 'ASC', '--cursor', String(large - tenth), '-o', 'ndjson'],
      long,
    );
    const filtered = await measure(big, home, ['loan', 'list', '--all', '--min-amount', '50999', '-o', 'ndjson'], long);
    say(
      `  loan list --all -o ndjson: ${count(all.rows)} rows in ${all.seconds.toFixed(1)} s, peak RSS ${all.peakMb.toFixed(0)} MB`,
      `  loan list --all --min-amount 50999: ${count(filtered.rows)} rows in ${filtered.seconds.toFixed(1)} s, peak RSS ${filtered.peakMb.toFixed(0)} MB`,
    );
    const flat = all.peakMb / tail.peakMb;
    figures.push({
      figure: `loan list --all -o ndjson, peak RSS: ${LARGE} rows / ${count(tenth)} rows`,
      measured: `${flat.toFixed(2)} x (${all.peakMb.toFixed(0)} MB / ${tail.peakMb.toFixed(0)} MB)`,
      goalText: '≤ 1.25 x',
      holds: all.peakMb > 0 && tail.peakMb > 0 && flat <= 1.25,
    });
    figures.push({
      figure: `loan list --all filtered, over ${LARGE} rows: peak RSS`,
      measured: `${filtered.peakMb.toFixed(0)} MB (${filtered.seconds.toFixed(0)} s)`,
      goalText: '— (reported)',
      holds: null,
    });

    // 4. A reference loanctl never saw: said at once, whatever the size (the look-ups: bench/lookup.mjs).
    const shows = {};
    for (const size of SIZES) {
      const show = cli(cliEnv(servers[size], home.dir), ['user', 'show', 'USR-BENCH-1']);
      expectExit(show, 4, 'user show REFERENCE');
      shows[size] = show;
      say(`  ${count(size)}: user show REFERENCE ${show.requests.length} request(s), ${show.seconds.toFixed(2)} s`);
    }
    const show = shows[large];
    figures.push({
      figure: `user show REFERENCE never seen, ${LARGE} borrowers`,
      measured: `${show.requests.length} requests, ${show.seconds.toFixed(2)} s, exit 4`,
      goalText: 'says at once',
      holds: show.requests.length <= 1,
    });
    return { lines: [], figures };
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
    home.cleanup();
  }
}

// The user list at any size: GET /api/v1/user?pages=N, page 1 and the last
// page, one request at a time, on a sandbox with 1,000 borrowers and one with 100,000, side by
// side (1,000,000 and the date windows: bench/huge.mjs, `--huge`). Goal: at 100,000 borrowers the
// first and the last page each cost at most 2 x what they cost at 1,000.
//
// Timings are interleaved as everywhere in the bench: each round asks every case in a rotating
// order, REQUESTS_PER_CASE requests each, and the figure is the median of every request's latency.
// Also reported: the last page's req/s at 16 connections (autocannon). Goals: `loanctl
// loan create --user EMAIL` finds the newest of 100,000 borrowers in at most 20 requests, and the
// same borrower again in 1 (the local index).
import { spawnSync } from 'node:child_process';
import { Agent, request } from 'node:http';
import autocannon from 'autocannon';
import { BIN, cliEnv, median, NODE, startServer, tempDir } from './lib.mjs';

/** The sandbox's user list page size (src/sandbox/handlers/users.ts USERS_PAGE_SIZE). */
const PAGE_SIZE = 50;
const REQUESTS_PER_CASE = 20;

/** One GET on a kept-alive connection: its latency in ms (the whole reply read). */
function timedGet(agent, server, path) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const req = request(
      `${server.url}${path}`,
      { agent, headers: { authorization: `Bearer ${server.api_key}` } },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk) => {
          bytes += chunk.length;
        });
        res.on('end', () => {
          if (res.statusCode !== 200 || bytes < 40)
            reject(new Error(`${path}: HTTP ${res.statusCode}, ${bytes} bytes`));
          else resolve(Number(process.hrtime.bigint() - start) / 1e6);
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function rps(server, path, connections, seconds) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${server.url}${path}`,
        headers: { authorization: `Bearer ${server.api_key}` },
        connections,
        duration: seconds,
      },
      (error, result) => {
        if (error) return reject(error);
        if (result.non2xx > 0 || result.errors > 0) return reject(new Error(`${path}: ${result.non2xx} non-2xx`));
        resolve(result.requests.total / ((result.finish - result.start) / 1000));
      },
    );
  });
}

const fmt = (value) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
const count = (n) => n.toLocaleString('en-GB');

export async function paging({ quick }) {
  const sizes = [1_000, 100_000];
  const rounds = quick ? 5 : 15;
  const servers = {};
  const lines = [];
  try {
    for (const size of sizes) {
      const started = Date.now();
      servers[size] = await startServer({ seedUsers: size });
      lines.push(
        `  ${count(size).padStart(9)} borrowers seeded and served in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    const cases = sizes.flatMap((size) => [
      { size, which: 'first', path: '/api/v1/user?pages=1' },
      { size, which: 'last', path: `/api/v1/user?pages=${size / PAGE_SIZE}` },
    ]);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const samples = new Map(cases.map((c) => [c, []]));
    for (let round = -2; round < rounds; round++) {
      const shift = ((round % cases.length) + cases.length) % cases.length;
      for (const c of [...cases.slice(shift), ...cases.slice(0, shift)]) {
        for (let i = 0; i < REQUESTS_PER_CASE; i++) {
          const ms = await timedGet(agent, servers[c.size], c.path);
          if (round >= 0) samples.get(c).push(ms);
        }
      }
    }
    agent.destroy();
    const medianOf = (size, which) => median(samples.get(cases.find((c) => c.size === size && c.which === which)));
    for (const c of cases) {
      lines.push(
        `  ${count(c.size).padStart(9)} borrowers, ${c.which} page (${c.path}): median ${fmt(medianOf(c.size, c.which))}`,
      );
    }

    // The last page under 16 connections, each size in turn (twice, in either order).
    const lastRps = Object.fromEntries(sizes.map((size) => [size, []]));
    for (const order of [sizes, [...sizes].reverse()]) {
      for (const size of order) {
        lastRps[size].push(await rps(servers[size], `/api/v1/user?pages=${size / PAGE_SIZE}`, 16, quick ? 0.5 : 1));
      }
    }
    for (const size of sizes) {
      lines.push(
        `  ${count(size).padStart(9)} borrowers, last page at 16 conn: ${Math.round(median(lastRps[size]))} req/s`,
      );
    }

    // The newest of 100,000 borrowers by e-mail, then the same again (the local index, checked by
    // one request). Requests are counted from --debug's request lines (`debug: > GET …`).
    const home = tempDir('paging-cli');
    const lookups = [];
    try {
      for (const run of ['first', 'seen before']) {
        const started = process.hrtime.bigint();
        const result = spawnSync(
          NODE,
          [
            BIN,
            'loan',
            'create',
            '--user',
            'borrower-100000@bench.example',
            '--amount',
            '50000',
            '--purpose',
            'bench',
            '-o',
            'json',
            '--debug',
          ],
          { env: cliEnv(servers[100_000], home.dir), encoding: 'utf8', timeout: 600_000 },
        );
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        if (result.status !== 0)
          throw new Error(`loan create --user: exit ${result.status}: ${result.stderr.slice(-2000)}`);
        const requests = result.stderr
          .split('\n')
          .filter((line) => /^debug: > GET .*\/api\/v1\/user/.test(line)).length;
        lookups.push({ run, seconds, requests });
        lines.push(
          `  loanctl loan create --user <newest of 100,000>, ${run}: ${requests} requests to find the id, ${seconds.toFixed(2)} s`,
        );
      }
    } finally {
      home.cleanup();
    }

    const figures = [];
    for (const which of ['first', 'last']) {
      const ratio = medianOf(100_000, which) / medianOf(1_000, which);
      figures.push({
        figure: `user list ${which} page: 100,000 / 1,000 borrowers`,
        measured: `${ratio.toFixed(2)} x (${fmt(medianOf(100_000, which))} vs ${fmt(medianOf(1_000, which))})`,
        goalText: '≤ 2 x',
        holds: ratio <= 2,
      });
    }
    figures.push({
      figure: 'user list last page, 100,000 borrowers, 16 conn',
      measured: `${Math.round(median(lastRps[100_000]))} req/s (1,000: ${Math.round(median(lastRps[1_000]))})`,
      goalText: '— (reported)',
      holds: null,
    });
    const [first, again] = lookups;
    figures.push({
      figure: 'loan create --user <newest of 100,000>: look-up requests',
      measured: `${first.requests} (${first.seconds.toFixed(1)} s in all)`,
      goalText: '≤ 20',
      holds: first.requests <= 20,
    });
    figures.push({
      figure: 'the same borrower again (local index): look-up requests',
      measured: `${again.requests} (${again.seconds.toFixed(1)} s in all)`,
      goalText: '≤ 1',
      holds: again.requests <= 1,
    });
    return { lines, figures };
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
}

// The sandbox's throughput: autocannon against POST /api/v1/user and GET /api/v1/loan_request at
// 1, 16 and 64 connections, each next to GET /__bench/empty (an empty route of the same server,
// registered by bench/sandbox-server.ts) in the same run. The server runs in its own process;
// autocannon runs here. Reported, with no goal: against an empty route only a reply cache would
// reach a fixed share, and the sandbox keeps none; its goal is against its peers (versus.mjs).
//
// The machine's load changes from one second to the next (2 cores, shared), so the targets are
// not measured one after another: each connection count is a number of rounds of 0.25 s slices,
// one slice of each target a round, the empty route and the list GET always back to back (either
// first, in turn) and POST user after them. A ratio is the median over the rounds of the list (or
// POST) slice against the same round's empty slice; req/s and p99 are medians of the slices.
import autocannon from 'autocannon';
import { median, startServer } from './lib.mjs';

const CONNECTIONS = [1, 16, 64];
/** The order of the targets in each round, in turn: empty and list back to back, either first. */
const ORDERS = [
  ['empty', 'GET loan_request', 'POST user'],
  ['GET loan_request', 'empty', 'POST user'],
];
/**
 * After a POST slice, the server still finishes the requests autocannon left in flight (up to one a
 * connection, each a hash and a commit, which also empties the read cache): a pause, so that this
 * work does not fall into the next round's first slice.
 */
const SETTLE_MS = 200;

/**
 * One slice: `seconds` of load on `target` (or `target.amount` requests). Requests/s over the
 * slice's own time, the p99 of every response's latency in ms (autocannon's own histogram keeps
 * whole milliseconds), and the replies counted and the slice's time.
 */
export function slice(name, target, connections, seconds) {
  const latencies = [];
  return new Promise((resolve, reject) => {
    // autocannon notices that its `amount` is reached only at its next sample: a slice of a number
    // of requests samples every 5 ms, or it would last at least `seconds` whatever the server's speed.
    const options = { ...target, connections, duration: seconds, sampleInt: target.amount ? 5 : seconds * 1000 };
    const instance = autocannon(options, (error, result) => {
      if (error) return reject(error);
      if (result.non2xx > 0 || result.errors > 0) {
        return reject(new Error(`${name}: ${result.non2xx} non-2xx replies and ${result.errors} errors`));
      }
      const elapsed = (result.finish - result.start) / 1000;
      latencies.sort((a, b) => a - b);
      const p99 = latencies.length ? latencies[Math.ceil(0.99 * latencies.length) - 1] : Number.NaN;
      resolve({ rps: result.requests.total / elapsed, p99, requests: result.requests.total, seconds: elapsed });
    });
    instance.on('response', (_client, _statusCode, _bytes, responseTime) => latencies.push(responseTime));
  });
}

/** autocannon's `requests` for POSTs of new users: each body a new e-mail (`load-N@bench.example`). */
export function newUserRequests(tag = 'load') {
  let serial = 0;
  return [
    {
      setupRequest: (request) => {
        serial++;
        return {
          ...request,
          body: JSON.stringify({
            firstname: 'Load',
            lastname: `User ${serial}`,
            email: `${tag}-${serial}@bench.example`,
            password: 'correct horse battery staple',
            phone: '+2348012345678',
            gender: 'female',
          }),
        };
      },
    },
  ];
}

const percent = (value) => `${value.toFixed(0)} %`;
const latency = (value) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;

export async function throughput({ quick }) {
  // Short slices, many rounds: load bursts on this machine last from a fraction of a second to a
  // few seconds, and a pair that straddles the start or end of one is an outlier the median drops.
  const rounds = quick ? 8 : 32;
  const seconds = 0.25;
  // A realistic list: pages of the API's default 20 out of a product with 10,000 loan requests.
  const server = await startServer({ seedLoans: 10_000 });
  try {
    const auth = { authorization: `Bearer ${server.api_key}` };
    const targets = {
      empty: { url: `${server.url}/__bench/empty`, method: 'GET', headers: auth },
      'GET loan_request': {
        url: `${server.url}/api/v1/loan_request?product-id=${server.product_id}&direction=DESC`,
        method: 'GET',
        headers: auth,
      },
      'POST user': {
        url: `${server.url}/api/v1/user`,
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        requests: newUserRequests(),
      },
    };
    const names = Object.keys(targets);
    // Warm the server (JIT, SQLite page cache) before anything is timed.
    for (const name of names) await slice(name, targets[name], 8, 1);

    const lines = [
      `  ${rounds} rounds of ${seconds} s slices at each connection count, empty route and list GET back to back in each; ratios: medians of the rounds' list/empty (and POST/empty)`,
    ];
    const figures = [];
    for (const connections of CONNECTIONS) {
      const slices = Object.fromEntries(names.map((name) => [name, []]));
      for (let round = 0; round < rounds; round++) {
        for (const name of ORDERS[round % ORDERS.length]) {
          slices[name].push(await slice(name, targets[name], connections, seconds));
        }
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      }
      const results = Object.fromEntries(
        names.map((name) => {
          const rps = slices[name].map((s) => s.rps);
          // This round's slice against the same round's empty slice.
          const shares = rps.map((value, round) => (100 * value) / slices.empty[round].rps);
          return [
            name,
            {
              rps: median(rps),
              p99: median(slices[name].map((s) => s.p99)),
              low: Math.min(...rps),
              high: Math.max(...rps),
              share: median(shares),
              shareLow: Math.min(...shares),
              shareHigh: Math.max(...shares),
            },
          ];
        }),
      );
      const empty = results.empty;
      for (const [name, r] of Object.entries(results)) {
        lines.push(
          `  ${String(connections).padStart(2)} conn  ${name.padEnd(17)} ${String(Math.round(r.rps)).padStart(6)} req/s  p99 ${latency(r.p99).padStart(7)}` +
            `  (slices ${Math.round(r.low)}–${Math.round(r.high)})` +
            (name === 'empty'
              ? ''
              : `   ${percent(r.share)} of empty's req/s (rounds ${percent(r.shareLow)}–${percent(r.shareHigh)}), p99 ${(r.p99 / empty.p99).toFixed(1)} x empty's`),
        );
      }
      const list = results['GET loan_request'];
      figures.push({
        figure: `GET loan_request req/s vs empty route, ${connections} conn`,
        measured: `${percent(list.share)} (${Math.round(list.rps)} vs ${Math.round(empty.rps)}; p99 ${latency(list.p99)} vs ${latency(empty.p99)})`,
        goalText: '— (reported)',
        holds: null,
      });
      const post = results['POST user'];
      figures.push({
        figure: `POST user req/s vs empty route, ${connections} conn`,
        measured: `${percent(post.share)} (${Math.round(post.rps)} req/s; p99 ${latency(post.p99)})`,
        goalText: '— (reported)',
        holds: null,
      });
    }
    return { lines, figures };
  } finally {
    await server.stop();
  }
}

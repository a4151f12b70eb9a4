// The sandbox's throughput: autocannon against POST /api/v1/user and GET /api/v1/loan_request at
// 1, 16 and 64 connections, each next to GET /__bench/empty (an empty route of the same server,
// registered by bench/sandbox-server.ts) in the same run. The server runs in its own process;
// autocannon runs here. Goal: the list GET at least 40 % of the empty route's requests/s.
//
// The machine's load changes from one second to the next (2 cores, shared), so the three are not
// measured one after another: each connection count is a number of rounds of 1 s slices, one
// slice of each in a rotating order, and the figures are medians of the slices.
import autocannon from 'autocannon';
import { median, startServer } from './lib.mjs';

const CONNECTIONS = [1, 16, 64];
const SLICE_SECONDS = 1;

/**
 * One slice: `seconds` of load on `target`. Requests/s over the slice's own time, and the p99 of
 * every response's latency in ms (autocannon's own histogram keeps whole milliseconds).
 */
function slice(name, target, connections, seconds) {
  const latencies = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon({ ...target, connections, duration: seconds }, (error, result) => {
      if (error) return reject(error);
      if (result.non2xx > 0 || result.errors > 0) {
        return reject(new Error(`${name}: ${result.non2xx} non-2xx replies and ${result.errors} errors`));
      }
      const elapsed = (result.finish - result.start) / 1000;
      latencies.sort((a, b) => a - b);
      const p99 = latencies.length ? latencies[Math.ceil(0.99 * latencies.length) - 1] : Number.NaN;
      resolve({ rps: result.requests.total / elapsed, p99 });
    });
    instance.on('response', (_client, _statusCode, _bytes, responseTime) => latencies.push(responseTime));
  });
}

const percent = (value) => `${value.toFixed(0)} %`;
const latency = (value) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;

export async function throughput({ quick }) {
  const rounds = quick ? 3 : 9;
  // A realistic list: pages of the API's default 20 out of a product with 10,000 loan requests.
  const server = await startServer({ seedLoans: 10_000 });
  try {
    const auth = { authorization: `Bearer ${server.api_key}` };
    let serial = 0;
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
        requests: [
          {
            setupRequest: (request) => {
              serial++;
              return {
                ...request,
                body: JSON.stringify({
                  firstname: 'Load',
                  lastname: `User ${serial}`,
                  email: `load-${serial}@bench.example`,
                  password: 'correct horse battery staple',
                  phone: '+2348012345678',
                  gender: 'female',
                }),
              };
            },
          },
        ],
      },
    };
    const names = Object.keys(targets);
    // Warm the server (JIT, SQLite page cache) before anything is timed.
    for (const name of names) await slice(name, targets[name], 8, 1);

    const lines = [
      `  ${rounds} rounds of ${SLICE_SECONDS} s slices at each connection count, one slice of each target a round in a rotating order; medians of the slices`,
    ];
    const figures = [];
    for (const connections of CONNECTIONS) {
      const slices = Object.fromEntries(names.map((name) => [name, []]));
      for (let round = 0; round < rounds; round++) {
        const shift = round % names.length;
        for (const name of [...names.slice(shift), ...names.slice(0, shift)]) {
          slices[name].push(await slice(name, targets[name], connections, SLICE_SECONDS));
        }
      }
      const results = Object.fromEntries(
        names.map((name) => [
          name,
          {
            rps: median(slices[name].map((s) => s.rps)),
            p99: median(slices[name].map((s) => s.p99)),
            low: Math.min(...slices[name].map((s) => s.rps)),
            high: Math.max(...slices[name].map((s) => s.rps)),
            // The same round's list (or POST) slice against its empty slice: how much the ratio moves.
            perRound: slices[name].map((s, round) => (100 * s.rps) / slices.empty[round].rps),
          },
        ]),
      );
      const empty = results.empty;
      for (const [name, { rps, p99, low, high, perRound }] of Object.entries(results)) {
        lines.push(
          `  ${String(connections).padStart(2)} conn  ${name.padEnd(17)} ${String(Math.round(rps)).padStart(6)} req/s  p99 ${latency(p99).padStart(7)}` +
            `  (slices ${Math.round(low)}–${Math.round(high)})` +
            (name === 'empty'
              ? ''
              : `   ${percent((100 * rps) / empty.rps)} of empty's req/s (rounds ${percent(Math.min(...perRound))}–${percent(Math.max(...perRound))}), p99 ${(p99 / empty.p99).toFixed(1)} x empty's`),
        );
      }
      const list = results['GET loan_request'];
      const share = (100 * list.rps) / empty.rps;
      figures.push({
        figure: `GET loan_request req/s vs empty route, ${connections} conn`,
        measured: `${percent(share)} (${Math.round(list.rps)} vs ${Math.round(empty.rps)}; p99 ${latency(list.p99)} vs ${latency(empty.p99)})`,
        goalText: '≥ 40 %',
        holds: share >= 40,
      });
      const post = results['POST user'];
      figures.push({
        figure: `POST user req/s vs empty route, ${connections} conn`,
        measured: `${percent((100 * post.rps) / empty.rps)} (${Math.round(post.rps)} req/s; p99 ${latency(post.p99)})`,
        goalText: '— (reported)',
        holds: null,
      });
    }
    return { lines, figures };
  } finally {
    await server.stop();
  }
}

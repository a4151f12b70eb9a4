// The sandbox's throughput: autocannon against POST /api/v1/user and GET /api/v1/loan_request at
// 1, 16 and 64 connections, each next to GET /__bench/empty (an empty route of the same server,
// registered by bench/sandbox-server.ts) in the same run. The server runs in its own process;
// autocannon runs here. Goal: the list GET at least 40 % of the empty route's requests/s.
import autocannon from 'autocannon';
import { startServer } from './lib.mjs';

const CONNECTIONS = [1, 16, 64];

function load(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

export async function throughput({ quick }) {
  const duration = quick ? 2 : 4;
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
    // Warm the server (JIT, SQLite page cache) before anything is timed.
    for (const target of Object.values(targets)) await load({ ...target, connections: 8, duration: 1 });

    const lines = [`  ${duration} s a run; empty route measured right before the two others at each connection count`];
    const figures = [];
    for (const connections of CONNECTIONS) {
      const results = {};
      for (const [name, target] of Object.entries(targets)) {
        const result = await load({ ...target, connections, duration });
        if (result.non2xx > 0 || result.errors > 0) {
          throw new Error(`${name}: ${result.non2xx} non-2xx replies and ${result.errors} errors`);
        }
        results[name] = { rps: result.requests.average, p99: result.latency.p99 };
      }
      const empty = results.empty;
      for (const [name, { rps, p99 }] of Object.entries(results)) {
        lines.push(
          `  ${String(connections).padStart(2)} conn  ${name.padEnd(17)} ${String(Math.round(rps)).padStart(6)} req/s  p99 ${String(p99).padStart(4)} ms` +
            (name === 'empty'
              ? ''
              : `   ${((100 * rps) / empty.rps).toFixed(0)} % of empty's req/s, p99 ${(p99 / Math.max(empty.p99, 1)).toFixed(1)} x empty's`),
        );
      }
      const list = results['GET loan_request'];
      const share = (100 * list.rps) / empty.rps;
      figures.push({
        figure: `GET loan_request req/s vs empty route, ${connections} conn`,
        measured: `${share.toFixed(0)} % (${Math.round(list.rps)} vs ${Math.round(empty.rps)}; p99 ${list.p99} vs ${empty.p99} ms)`,
        goalText: '≥ 40 %',
        holds: share >= 40,
      });
      const post = results['POST user'];
      figures.push({
        figure: `POST user req/s vs empty route, ${connections} conn`,
        measured: `${((100 * post.rps) / empty.rps).toFixed(0)} % (${Math.round(post.rps)} req/s; p99 ${post.p99} ms)`,
        goalText: '— (reported)',
        holds: null,
      });
    }
    return { lines, figures };
  } finally {
    await server.stop();
  }
}

/**
 * The sandbox as `loanctl sandbox start` serves it (ensureDemo + buildSandbox, on 127.0.0.1), plus
 * what only the benchmarks need:
 *   - `GET /__bench/empty`: the cheapest reply the same Fastify server can give, the yardstick of
 *     the throughput ratios (registered here, never in production code);
 *   - `--seed-loans N`: N loan requests written straight through the repositories in one
 *     transaction (seconds, where N HTTP calls would take minutes).
 *
 * bench/run.mjs bundles this file with esbuild and runs it as a child process, so the load
 * generator and the CLI under test never share the server's event loop. Prints one JSON line
 * (url, api_key, org_id, product_id, seeded), then serves until SIGTERM/SIGINT or stdin closes.
 */
import { parseArgs } from 'node:util';
import { ensureDemo } from '../src/sandbox/admin.js';
import { buildSandbox } from '../src/sandbox/app.js';
import { dbPathFor, SandboxDb } from '../src/sandbox/db.js';
import { createRepos } from '../src/sandbox/repos/index.js';
import { newReference } from '../src/sandbox/secrets.js';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    'seed-loans': { type: 'string', default: '0' },
  },
});
const dataDir = values['data-dir'];
if (!dataDir) throw new Error('--data-dir is required');
const seedLoans = Number(values['seed-loans']);

const demo = ensureDemo(dataDir);

/** One borrower and `count` loan requests of the demo product, in one transaction. */
function seed(count: number): void {
  const db = SandboxDb.open(dbPathFor(dataDir as string));
  try {
    const repos = createRepos(db);
    const now = new Date().toISOString();
    db.transaction(() => {
      const userId = repos.users.create({
        org_id: demo.org_id,
        firstname: 'Seed',
        lastname: 'Borrower',
        email: `seed-${Date.now()}@bench.example`,
        phone: '+2348012345678',
        gender: 'female',
        // Never logged in with: any stored text will do (the sandbox only writes scrypt hashes).
        password_hash: 'bench-seed-no-login',
        reference: newReference('user'),
        source: 'api',
        now,
      });
      if (userId === undefined) throw new Error('seed user exists');
      for (let i = 0; i < count; i++) {
        repos.loanRequests.create({
          org_id: demo.org_id,
          user_id: userId,
          product_id: demo.product_id,
          reference: newReference('loanRequest'),
          amount: 50_000 + (i % 1000),
          purpose: `Seeded loan request ${i + 1}`,
          now,
        });
      }
    });
  } finally {
    db.close();
  }
}

if (seedLoans > 0) seed(seedLoans);

const app = await buildSandbox({ dbPath: dbPathFor(dataDir) });
app.get('/__bench/empty', (_request, reply) => {
  reply.type('application/json; charset=utf-8').send('{}');
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(
  `${JSON.stringify({ url: `http://127.0.0.1:${port}`, api_key: demo.api_key, org_id: demo.org_id, product_id: demo.product_id, seeded: seedLoans })}\n`,
);

let closing = false;
const stop = async () => {
  if (closing) return;
  closing = true;
  await app.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();

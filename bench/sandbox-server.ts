/**
 * The sandbox as `loanctl sandbox start` serves it (ensureDemo + buildSandbox, on 127.0.0.1), plus
 * what only the benchmarks need:
 *   - `GET /__bench/empty`: the cheapest reply the same Fastify server can give, the yardstick of
 *     the throughput ratios (registered here, never in production code);
 *   - `GET /__bench/page`: the newest page of the demo product's loan requests, the very bytes
 *     the API sent for it at start-up, replayed from memory through the same server and hooks
 *     (the request log included): what the list GET would cost with no database and no
 *     serialisation, the ceiling of bench/versus.mjs's GET figure;
 *   - `--seed-loans N`: N loan requests written straight through the repositories in one
 *     transaction (seconds, where N HTTP calls would take minutes);
 *   - `--seed-users N`: N more borrowers of the demo organisation, the same way;
 *   - `--huge N` (bench/huge.mjs): N borrowers of the demo organisation with their creation times
 *     spread evenly over the past year, oldest first (`borrower-1@spread.example` …, every 1,000th
 *     with the phone +2348099999999), and N loan requests of its product; and a second
 *     organisation ("Today Lender", its key and product in the JSON line's `today`) whose N
 *     borrowers were all created today (`borrower-N@today.example` the newest). Written through
 *     the repositories, so every row gets the numbers a real create gives it;
 *   - `--export-json FILE`: everything seeded written as a json-server database (`users` and
 *     `loan_requests`, each item exactly as the API returns it), for the side-by-side comparison.
 *
 * bench/run.mjs bundles this file with esbuild and runs it as a child process, so the load
 * generator and the CLI under test never share the server's event loop. Prints one JSON line
 * (url, api_key, org_id, product_id, seeded, users), then serves until SIGTERM/SIGINT or stdin closes.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createOrganisation, createProduct, ensureDemo } from '../src/sandbox/admin.js';
import { buildSandbox } from '../src/sandbox/app.js';
import { dbPathFor, SandboxDb } from '../src/sandbox/db.js';
import { createRepos } from '../src/sandbox/repos/index.js';
import { newReference } from '../src/sandbox/secrets.js';
import * as serialize from '../src/sandbox/serialize.js';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    'seed-loans': { type: 'string', default: '0' },
    'seed-users': { type: 'string', default: '0' },
    'export-json': { type: 'string' },
    huge: { type: 'string', default: '0' },
  },
});
const dataDir = values['data-dir'];
if (!dataDir) throw new Error('--data-dir is required');
const seedLoans = Number(values['seed-loans']);
const seedUsers = Number(values['seed-users']);
const huge = Number(values.huge);

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

/**
 * `count` borrowers of an organisation (one statement each, in one transaction), created at
 * `stampOf(i)` (default: now), e-mails `borrower-N@DOMAIN`, every 1,000th with the phone
 * +2348099999999.
 */
function seedBorrowers(
  count: number,
  orgId = demo.org_id,
  domain = 'bench.example',
  stampOf?: (i: number) => string,
): void {
  const db = SandboxDb.open(dbPathFor(dataDir as string));
  const now = new Date().toISOString();
  try {
    const repos = createRepos(db);
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const created = repos.users.create({
          org_id: orgId,
          firstname: 'Borrower',
          lastname: `Number ${i + 1}`,
          email: `borrower-${i + 1}@${domain}`,
          phone: (i + 1) % 1000 === 0 ? '+2348099999999' : '+2348012345678',
          gender: i % 2 ? 'male' : 'female',
          reference: newReference('user'),
          source: 'api',
          now: stampOf?.(i) ?? now,
        });
        if (created === undefined) throw new Error(`borrower ${i + 1} exists`);
      }
    });
  } finally {
    db.close();
  }
}

/** The demo organisation's users and loan requests as a json-server database file. */
function exportJson(file: string): void {
  const db = SandboxDb.open(dbPathFor(dataDir as string));
  try {
    const repos = createRepos(db);
    const users = repos.users.page(demo.org_id, 0, Number.MAX_SAFE_INTEGER).map(serialize.userListItem);
    const loanRequests = repos.loanRequests
      .page(demo.org_id, demo.product_id, 'ASC', 0, Number.MAX_SAFE_INTEGER)
      .map(serialize.loanRequest);
    writeFileSync(file, JSON.stringify({ users, loan_requests: loanRequests }));
  } finally {
    db.close();
  }
}

if (seedLoans > 0) seed(seedLoans);
if (seedUsers > 0) seedBorrowers(seedUsers);
let today: { api_key: string; org_id: number; product_id: number } | undefined;
if (huge > 0) {
  const yearMs = 365 * 86_400_000;
  const yearAgo = Date.now() - yearMs;
  seedBorrowers(huge, demo.org_id, 'spread.example', (i) => new Date(yearAgo + (i * yearMs) / huge).toISOString());
  seed(huge);
  const org = createOrganisation(dataDir, 'Today Lender');
  today = { ...org, product_id: createProduct(dataDir, org.org_id, 'Today Loan').product_id };
  seedBorrowers(huge, org.org_id, 'today.example');
}
if (values['export-json']) exportJson(values['export-json']);

const app = await buildSandbox({ dbPath: dbPathFor(dataDir) });
let listPage = '';
app.get('/__bench/page', (_request, reply) => {
  reply.type('application/json; charset=utf-8').send(listPage);
});
app.get('/__bench/empty', (_request, reply) => {
  reply.type('application/json; charset=utf-8').send('{}');
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
listPage = await fetch(`http://127.0.0.1:${port}/api/v1/loan_request?product-id=${demo.product_id}&direction=DESC`, {
  headers: { authorization: `Bearer ${demo.api_key}` },
}).then((response) => response.text());
process.stdout.write(
  `${JSON.stringify({ url: `http://127.0.0.1:${port}`, api_key: demo.api_key, org_id: demo.org_id, product_id: demo.product_id, seeded: seedLoans, users: seedUsers, today })}\n`,
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

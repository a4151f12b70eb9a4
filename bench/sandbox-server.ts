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
 *   - `--huge N` (bench/huge.mjs): two organisations grown with SQL, each statement an INSERT …
 *     SELECT over a counter (a million rows in seconds, where a million creates take many
 *     minutes on a busy machine): "Year Lender" (the JSON line's own key and product) with N
 *     borrowers created evenly over the past year, oldest first (`borrower-1@spread.example` …,
 *     every 1,000th with the phone +2348099999999, the first alone with +2348000000001), and N loan requests of its product (amounts
 *     50,000 to 50,999, so `--min-amount 50999` keeps one in 1,000); and "Today Lender" (`today`
 *     in the JSON line) whose N borrowers were all created today (`borrower-N@today.example` the
 *     newest). Each borrower gets the numbers a create gives (org_seq, day_seq: migrations 2, 5);
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
import { seedLoanRequests } from '../test/helpers/seed-rows.js';

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

/** `count` borrowers of the demo organisation (one statement each, in one transaction). */
function seedBorrowers(count: number): void {
  const db = SandboxDb.open(dbPathFor(dataDir as string));
  try {
    const repos = createRepos(db);
    const now = new Date().toISOString();
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const created = repos.users.create({
          org_id: demo.org_id,
          firstname: 'Borrower',
          lastname: `Number ${i + 1}`,
          email: `borrower-${i + 1}@bench.example`,
          phone: '+2348012345678',
          gender: i % 2 ? 'male' : 'female',
          reference: newReference('user'),
          source: 'api',
          now,
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

if (seedLoans > 0) seedLoanRequests(dataDir, seedLoans, `seed-${Date.now()}@bench.example`);
if (seedUsers > 0) seedBorrowers(seedUsers);
type OrgKey = { api_key: string; org_id: number; product_id: number };
let year: OrgKey | undefined;
let today: OrgKey | undefined;
if (huge > 0) {
  const yearMs = 365 * 86_400_000;
  const orgWithProduct = (name: string): OrgKey => {
    const org = createOrganisation(dataDir, name);
    return { ...org, product_id: createProduct(dataDir, org.org_id, `${name} Loan`).product_id };
  };
  year = orgWithProduct('Year Lender');
  today = orgWithProduct('Today Lender');
  growHuge(huge, year, 'spread.example', Date.now() - yearMs, yearMs / huge);
  growHuge(huge, today, 'today.example', Date.now(), 0);
}

/**
 * `count` borrowers of a new, empty organisation, the i-th created at `fromMs + i × stepMs`, numbered
 * as a create numbers them (org_seq in id order; day_seq in id order within its UTC day); and, when
 * the borrowers are spread, `count` loan requests of its product, copied from one made by the
 * repository (so every other column is as the API writes it).
 */
function growHuge(count: number, org: OrgKey, domain: string, fromMs: number, stepMs: number): void {
  const db = SandboxDb.open(dbPathFor(dataDir as string));
  try {
    db.transaction(() => {
      db.sqlite
        .prepare(
          `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < :count),
                stamped AS (SELECT i, strftime('%Y-%m-%dT%H:%M:%fZ', (:from_ms + (i - 1) * :step_ms) / 1000.0, 'unixepoch') AS at FROM n)
           INSERT INTO users (org_id, firstname, lastname, email, phone, gender, reference, source,
                              is_active, created_at, updated_at, org_seq, day_seq)
           SELECT :org_id, 'Borrower', 'Number ' || i, 'borrower-' || i || '@' || :domain,
                  CASE WHEN i = 1 THEN '+2348000000001' WHEN i % 1000 = 0 THEN '+2348099999999' ELSE '+2348012345678' END,
                  CASE WHEN i % 2 = 0 THEN 'male' ELSE 'female' END,
                  'USR-BENCH-' || :org_id || '-' || i, 'api', 1, at, at, i,
                  row_number() OVER (PARTITION BY substr(at, 1, 10) ORDER BY i)
             FROM stamped ORDER BY i`,
        )
        .run({ count, from_ms: fromMs, step_ms: stepMs, org_id: org.org_id, domain });
      if (stepMs === 0) return;
      const repos = createRepos(db);
      const template = repos.loanRequests.create({
        org_id: org.org_id,
        user_id: Number(
          (db.sqlite.prepare('SELECT min(id) AS id FROM users WHERE org_id = ?').get(org.org_id) as { id: number }).id,
        ),
        product_id: org.product_id,
        reference: newReference('loanRequest'),
        amount: 50_000,
        purpose: 'Seeded loan request',
        now: new Date().toISOString(),
      });
      const columns = (db.sqlite.prepare('PRAGMA table_info(loan_requests)').all() as { name: string }[])
        .map((column) => column.name)
        .filter((name) => !['id', 'reference', 'amount'].includes(name));
      db.sqlite
        .prepare(
          `WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < :count)
           INSERT INTO loan_requests (reference, amount, ${columns.join(', ')})
           SELECT 'LR-BENCH-' || i, 50000 + (i - 1) % 1000, ${columns.join(', ')} FROM loan_requests, n
            WHERE loan_requests.id = :template ORDER BY i`,
        )
        .run({ count, template });
    });
  } finally {
    db.close();
  }
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
  `${JSON.stringify({ url: `http://127.0.0.1:${port}`, ...(year ?? { api_key: demo.api_key, org_id: demo.org_id, product_id: demo.product_id }), seeded: seedLoans, users: seedUsers, today })}\n`,
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

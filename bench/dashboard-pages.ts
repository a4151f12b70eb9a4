/**
 * The dashboard's pages at each size, side by side in one process (bench/dashboard.mjs bundles this
 * file and runs it once): for each size a data dir of its own, whose demo organisation is grown to
 * that many borrowers (each with a phone of its own) and as many loan requests by SQL (seconds,
 * where the API would take hours) — a third submitted, each at its own second, a sixth of those
 * approved — and an app of its own;
 * then each page, first and last, asked through the real Fastify app (`inject`: routes, session,
 * queries, HTML) `--requests` times, the sizes interleaved request by request in a rotating order,
 * so that a ratio compares requests made at the same moment (two processes one after the other
 * drifted by 30 % between runs). Prints one JSON line: [{what, size, ms}], ms the median.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { ensureDemo } from '../src/sandbox/admin.js';
import { buildSandbox } from '../src/sandbox/app.js';
import { PAGE_SIZE } from '../src/sandbox/dashboard/queries.js';
import { dbPathFor, SandboxDb } from '../src/sandbox/db.js';

const { values } = parseArgs({
  options: { 'data-dir': { type: 'string' }, sizes: { type: 'string' }, requests: { type: 'string', default: '15' } },
});
const sizes = (values.sizes ?? '').split(',').map(Number);
const requests = Number(values.requests);

/** `size` borrowers and `size` loan requests of the demo product, one statement each. */
function grow(dataDir: string, demo: { org_id: number; product_id: number }, size: number): void {
  const db = SandboxDb.open(dbPathFor(dataDir));
  try {
    const at = (offset: string) => `strftime('%Y-%m-%dT%H:%M:%SZ', '2026-01-01', ${offset} || ' seconds')`;
    db.transaction(() => {
      db.sqlite.exec(`
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${size})
        INSERT INTO users (org_id, firstname, lastname, email, phone, gender, reference, source,
                           is_active, created_at, updated_at, org_seq)
        SELECT ${demo.org_id}, 'Borrower', 'Number ' || i, 'borrower-' || i || '@bench.example',
               '+23480' || substr('0000000' || i, -8, 8),
               'female', 'USR-BENCH-' || i, 'api', 1, ${at('i')}, ${at('i')}, i
          FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${size})
        INSERT INTO loan_requests (org_id, user_id, product_id, reference, amount, purpose, status, lender_status,
                                   user_status, active, debit_mandate_next_step, submitted_at, approved_at,
                                   created_at, updated_at)
        SELECT ${demo.org_id}, (SELECT min(id) FROM users WHERE org_id = ${demo.org_id}) + i % ${size},
               ${demo.product_id}, 'LR-BENCH-' || i, 50000 + i % 1000, 'Seeded ' || i,
               CASE WHEN i % 3 = 0 THEN 'pending' ELSE 'saved' END,
               CASE WHEN i % 18 = 0 THEN 'approved' ELSE 'saved' END,
               CASE WHEN i % 3 = 0 THEN 'submitted' ELSE 'saved' END, 1, 'setup',
               CASE WHEN i % 3 = 0 THEN ${at('i * 2')} END, CASE WHEN i % 18 = 0 THEN ${at('i * 2 + 1')} END,
               ${at('i')}, ${at('i')}
          FROM n;
      `);
    });
  } finally {
    db.close();
  }
}

/** The `after` that opens the last page of a list: the id of the row just before its last PAGE_SIZE rows. */
function lastAfter(db: SandboxDb, sql: string): number {
  const row = db.sqlite.prepare(`${sql} LIMIT 1 OFFSET ${PAGE_SIZE}`).get() as { id: number } | undefined;
  return row?.id ?? 0;
}

/** One size: its data dir grown, its cases (first and last page of each list), its app signed in. */
async function prepare(size: number) {
  const dataDir = join(values['data-dir'] as string, String(size));
  const demo = ensureDemo(dataDir);
  grow(dataDir, demo, size);
  const db = SandboxDb.open(dbPathFor(dataDir));
  const org = `org_id = ${demo.org_id}`;
  const loans = `FROM loan_requests WHERE ${org} AND deleted_at IS NULL`;
  const pages: [string, string, string][] = [
    ['borrowers', '/dashboard/borrowers', `SELECT id FROM users WHERE ${org} ORDER BY id`],
    ['loans', '/dashboard/loans', `SELECT id ${loans} ORDER BY id`],
    [
      'loans, status pending',
      '/dashboard/loans?status=pending',
      `SELECT id ${loans} AND status = 'pending' ORDER BY id`,
    ],
    [
      'loans, lender status approved',
      '/dashboard/loans?lender_status=approved',
      `SELECT id ${loans} AND lender_status = 'approved' ORDER BY id`,
    ],
    [
      'loans, user status submitted',
      '/dashboard/loans?user_status=submitted',
      `SELECT id ${loans} AND user_status = 'submitted' ORDER BY id`,
    ],
    [
      'queue',
      '/dashboard/queue',
      `SELECT id ${loans} AND user_status = 'submitted' AND lender_status <> 'approved' ORDER BY submitted_at DESC, id DESC`,
    ],
  ];
  const cases = pages.flatMap(([what, path, order]) => {
    const join = path.includes('?') ? '&' : '?';
    return [
      { what: `${what}, first page`, url: path },
      { what: `${what}, last page`, url: `${path}${join}after=${lastAfter(db, order)}` },
    ];
  });
  // The searches and the combined filters, each as an operator uses them: the oldest borrower's
  // e-mail, and its phone (+2348000000001) as typed with spaces; a combination no loan request has
  // (pending is always submitted here), and one most have.
  cases.push(
    { what: 'borrowers, search the oldest e-mail', url: '/dashboard/borrowers?search=borrower-1%40bench.example' },
    { what: 'borrowers, search the oldest phone', url: '/dashboard/borrowers?search=0800+000+0001' },
    {
      what: 'loans, status saved + user status submitted (none)',
      url: '/dashboard/loans?status=saved&user_status=submitted',
    },
    { what: 'loans, status pending + lender status saved', url: '/dashboard/loans?status=pending&lender_status=saved' },
  );
  db.close();
  const app = await buildSandbox({ dbPath: dbPathFor(dataDir) });
  const inject = await signedIn(app, demo.api_key);
  return { size, cases, app, inject };
}

/** A GET/POST through `app` that keeps the dashboard's session cookie, once signed in with `apiKey`. */
async function signedIn(app: FastifyInstance, apiKey: string) {
  let cookie = '';
  const inject = async (method: 'GET' | 'POST', url: string, payload?: string) => {
    const reply = await app.inject({
      method,
      url,
      payload,
      headers: { cookie, ...(payload ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    });
    const set = reply.headers['set-cookie'];
    for (const line of set === undefined ? [] : Array.isArray(set) ? set : [set]) cookie = line.split(';')[0] ?? '';
    return reply;
  };
  const signIn = await inject('GET', '/dashboard/sign-in');
  const token = /name="token" value="([^"]+)"/.exec(signIn.body)?.[1] ?? '';
  await inject('POST', '/dashboard/sign-in', new URLSearchParams({ token, api_key: apiKey }).toString());
  return inject;
}

const prepared = [];
for (const size of sizes) prepared.push(await prepare(size));

// Interleaved rounds: each case once a round at every size, the sizes in a rotating order, after
// untimed rounds that warm the JIT and SQLite's cache.
const samples = new Map<string, number[]>();
const sampleKey = (what: string, size: number) => `${size} ${what}`;
for (let round = -5; round < requests; round++) {
  for (const [index, { what }] of prepared[0]?.cases.entries() ?? []) {
    const shift = ((round % prepared.length) + prepared.length) % prepared.length;
    for (const { size, cases, inject } of [...prepared.slice(shift), ...prepared.slice(0, shift)]) {
      const url = cases[index]?.url as string;
      const start = process.hrtime.bigint();
      const reply = await inject('GET', url);
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (reply.statusCode !== 200 || !reply.body.includes('<table'))
        throw new Error(`${url}: HTTP ${reply.statusCode}`);
      // A search that found nothing would be fast and wrong: each finds the oldest borrower.
      if (url.includes('search=') && !reply.body.includes('borrower-1@bench.example'))
        throw new Error(`${url}: the oldest borrower is not found`);
      if (round < 0) continue;
      const key = sampleKey(what, size);
      samples.set(key, [...(samples.get(key) ?? []), ms]);
    }
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const rows = prepared.flatMap(({ size, cases }) =>
  cases.map(({ what }) => ({ what, size, ms: median(samples.get(sampleKey(what, size)) ?? []) })),
);
for (const { app } of prepared) await app.close();
process.stdout.write(`${JSON.stringify(rows)}\n`);

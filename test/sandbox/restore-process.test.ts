/**
 * `loanctl sandbox restore` from another process (the real built CLI) while an app serves the same
 * data dir and keeps writing, as an operator restores beside a running sandbox: every write gets an
 * envelope (success, or the 503 "locked" one while the restore holds the lock), every write
 * acknowledged after the restore returned is in the database, and no id is handed out twice —
 * not even to a write that landed just before the restore replaced the rows.
 */
import { rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { execa } from 'execa';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createOrganisation, createProduct } from '../../src/sandbox/admin.js';
import { buildSandbox } from '../../src/sandbox/app.js';
import { dbPathFor } from '../../src/sandbox/db.js';
import { assertBuilt, BIN, ROOT } from '../helpers/cli.js';
import { call, type Org, tempDir, userBody } from '../helpers/sandbox.js';

let dataDir: string;
let app: FastifyInstance;
let org: Org;

beforeEach(async () => {
  assertBuilt();
  dataDir = tempDir();
  const made = createOrganisation(dataDir, 'Restore Lender');
  org = { ...made, product_id: createProduct(dataDir, made.org_id, 'Restore Loan').product_id };
  app = await buildSandbox({ dbPath: dbPathFor(dataDir) });
});
afterEach(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** `count` borrowers written with SQL, so that a restore has rows enough to take a while. */
function growUsers(count: number): void {
  const db = new DatabaseSync(dbPathFor(dataDir));
  db.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < :count)
     INSERT INTO users (org_id, firstname, lastname, email, phone, gender, reference, source,
                        is_active, created_at, updated_at, org_seq)
     SELECT :org, 'Ada', 'Grown', 'grown' || i || '@example.com', '+2348000000000', 'female', 'grown-' || i,
            'api', 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', i FROM n`,
  ).run({ count, org: org.org_id });
  db.close();
}

const loanctl = (...args: string[]) =>
  execa(process.execPath, [BIN, 'sandbox', ...args, '--data-dir', dataDir, '-o', 'json'], {
    cwd: ROOT,
    reject: false,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
    extendEnv: false,
  });

function storedUsers(): Array<{ id: number; email: string }> {
  const db = new DatabaseSync(dbPathFor(dataDir), { readOnly: true });
  try {
    return db.prepare('SELECT id, email FROM users').all() as Array<{ id: number; email: string }>;
  } finally {
    db.close();
  }
}

it('writes beside a restore from another process: envelopes, nothing acknowledged after it lost, no id twice', async () => {
  growUsers(20_000);
  expect((await loanctl('snapshot', 'grown')).exitCode).toBe(0);
  const highestBefore = Math.max(...storedUsers().map((user) => user.id));

  const restore = loanctl('restore', 'grown', '--yes');
  let restored = false;
  void restore.finally(() => {
    restored = true;
  });
  const acknowledged: Array<{ email: string; after: boolean }> = [];
  let sent = 0;
  // Writes until the restore has returned, then a few more.
  for (let extra = 0; extra < 5; extra += restored ? 1 : 0) {
    const email = `beside${sent++}@example.com`;
    const reply = await call(app, 'createUser', { key: org.api_key, body: userBody({ email }) });
    if (reply.json.status === 'success') acknowledged.push({ email, after: restored });
    else expect({ http: reply.http, message: reply.json.message }).toMatchObject({ http: 503, message: /locked/ });
    await new Promise((resolve) => setImmediate(resolve));
  }
  const result = await restore;
  expect(result.exitCode, result.stderr).toBe(0);

  const stored = storedUsers();
  const emails = new Set(stored.map((user) => user.email));
  for (const write of acknowledged.filter((entry) => entry.after)) expect(emails.has(write.email)).toBe(true);
  // Writes acknowledged after the restore got ids above every id of before, the ones it removed too.
  const beside = stored.filter((user) => user.email.startsWith('beside'));
  expect(beside.length).toBeGreaterThan(0);
  for (const user of beside) expect(user.id).toBeGreaterThan(highestBefore);
  expect(new Set(stored.map((user) => user.id)).size).toBe(stored.length);
}, 60_000);

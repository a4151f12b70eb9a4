/**
 * The sandbox's control verbs in-process (runCli) against a sandbox app that serves the same data
 * dir meanwhile, as `sandbox start` would: the clock, reset, snapshot/restore and seed, each seen
 * by the serving app's next request.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOrganisation, createProduct, readDemoCredentials } from '../../src/sandbox/admin.js';
import { buildSandbox } from '../../src/sandbox/app.js';
import { dbPathFor, SandboxDb } from '../../src/sandbox/db.js';
import { MIGRATIONS } from '../../src/sandbox/repos/migrations.js';
import { runCli } from '../helpers/run-cli.js';
import { call, findUserId, type Org, tempDir, userBody } from '../helpers/sandbox.js';

let dataDir: string;
let app: FastifyInstance;
let org: Org;

beforeEach(async () => {
  dataDir = tempDir();
  const made = createOrganisation(dataDir, 'Control Lender');
  org = { ...made, product_id: createProduct(dataDir, made.org_id, 'Control Loan').product_id };
  // No `now`: the app keeps the data dir's own clock, as a started sandbox does.
  app = await buildSandbox({ dbPath: dbPathFor(dataDir) });
});
afterEach(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const sandbox = (...args: string[]) => runCli(['sandbox', ...args, '--data-dir', dataDir]);

async function createUser(email?: string): Promise<string> {
  const body = userBody(email ? { email } : {});
  const reply = await call(app, 'createUser', { key: org.api_key, body });
  expect(reply.json.status).toBe('success');
  return (reply.json.data as { created_at: string }).created_at;
}

async function userEmails(key = org.api_key): Promise<string[]> {
  const reply = await call(app, 'listUsers', { key });
  return (reply.json.data as Array<{ email: string }>).map((user) => user.email);
}

describe('sandbox clock', () => {
  it('moves the timestamps a serving sandbox writes, and keeps the change for the next process', async () => {
    const set = await sandbox('clock', 'set', '2026-01-01T09:00:00Z', '--json');
    expect(set.exitCode).toBe(0);
    expect(Date.parse(await createUser())).toBeGreaterThanOrEqual(Date.parse('2026-01-01T09:00:00Z'));
    expect(Date.parse(await createUser())).toBeLessThan(Date.parse('2026-01-01T10:00:00Z'));

    expect((await sandbox('clock', 'advance', '30d')).exitCode).toBe(0);
    expect((await createUser()).slice(0, 10)).toBe('2026-01-31');

    // Another process (a restarted sandbox) reads the same clock from the data dir.
    const shown = await sandbox('clock', '--json');
    expect(shown.json<{ now: string }>().now.slice(0, 10)).toBe('2026-01-31');

    expect((await sandbox('clock', 'reset')).exitCode).toBe(0);
    expect(Math.abs(Date.parse(await createUser()) - Date.now())).toBeLessThan(3_600_000);
  });

  it("tells its time in each reply's Date header: the time a write stamped, and a refusal's too", async () => {
    expect((await sandbox('clock', 'set', '2026-01-01T09:00:00Z')).exitCode).toBe(0);
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/user',
      headers: { authorization: `Bearer ${org.api_key}` },
      payload: userBody(),
    });
    const stamped = new Date(created.json().data.created_at as string);
    expect(created.headers.date).toBe(stamped.toUTCString());
    const refused = await app.inject({ method: 'GET', url: '/api/v1/user' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers.date).toMatch(/^Thu, 01 Jan 2026 09:0\d:\d\d GMT$/);
  });

  it('refuses a time without a zone and a duration it cannot read, in one line with exit 2', async () => {
    const noZone = await sandbox('clock', 'set', '2026-01-01 09:00');
    expect(noZone.exitCode).toBe(2);
    expect(noZone.stderr).toContain('2026-01-01T09:00:00Z');
    const badUnit = await sandbox('clock', 'advance', '30 days');
    expect(badUnit.exitCode).toBe(2);
    expect(badUnit.stderr).toContain('5 (seconds), 500ms, 5s, 2m, 1h or 7d');
  });
});

describe('sandbox reset', () => {
  it('empties borrowers while serving and keeps the organisation, its key and product', async () => {
    await createUser();
    const reset = await sandbox('reset', '--yes', '-o', 'table');
    expect(reset.exitCode).toBe(0);
    expect(reset.stdout).toContain('1 user, 0 loan requests');
    expect(await userEmails()).toEqual([]);
    const loan = await call(app, 'listLoanRequests', {
      key: org.api_key,
      productId: org.product_id,
      query: { direction: 'ASC' },
    });
    expect(loan.json.status).toBe('success');
  });

  it('--all removes every organisation and makes the demo one again', async () => {
    const reset = await sandbox('reset', '--all', '--yes', '--json');
    expect(reset.exitCode).toBe(0);
    const demo = reset.json<{ api_key: string; product_id: number }>();
    expect((await call(app, 'listUsers', { key: org.api_key })).http).toBe(401);
    expect((await call(app, 'listUsers', { key: demo.api_key })).json.status).toBe('success');
    expect(readDemoCredentials(dataDir)?.api_key).toBe(demo.api_key);
  });
});

describe('sandbox snapshot and restore', () => {
  it('restores, while serving, the data as it was when the snapshot was taken', async () => {
    await createUser('kept@example.com');
    expect((await sandbox('snapshot', 'one-user')).exitCode).toBe(0);
    await createUser('later@example.com');

    const restored = await sandbox('restore', 'one-user', '--yes');
    expect(restored.exitCode).toBe(0);
    expect(await userEmails()).toEqual(['kept@example.com']);

    const list = await sandbox('snapshot', 'list', '--json');
    expect(list.json<Array<{ name: string }>>().map((entry) => entry.name)).toEqual(['one-user']);
  });

  it('does not overwrite a snapshot without --force, and names an unknown one', async () => {
    await sandbox('snapshot', 'same');
    const again = await sandbox('snapshot', 'same');
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('--force');
    expect((await sandbox('snapshot', 'same', '--force')).exitCode).toBe(0);
    const missing = await sandbox('restore', 'nope', '--yes');
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('no snapshot named "nope"');
  });
});

describe('sandbox seed', () => {
  it('fixtures/small-book.yaml: 50 borrowers, 20 submitted, 5 approved 90 days ago', async () => {
    const seeded = await sandbox('seed', 'fixtures/small-book.yaml', '--json');
    expect(seeded.exitCode, seeded.stderr).toBe(0);
    const demo = readDemoCredentials(dataDir);
    if (!demo) throw new Error('no demo credentials');
    const reply = await call(app, 'listLoanRequests', {
      key: demo.api_key,
      productId: demo.product_id,
      query: { direction: 'ASC', limit: 100 },
    });
    const loans = (reply.json.data as { loan_requests: Array<Record<string, unknown>> }).loan_requests;
    expect(loans).toHaveLength(20);
    expect(loans.filter((loan) => loan.user_status === 'submitted')).toHaveLength(20);
    const approved = loans.filter((loan) => loan.progress === 'approved');
    expect(approved).toHaveLength(5);
    const daysAgo = (Date.now() - Date.parse(String(approved[0]?.approved_at))) / 86_400_000;
    expect(Math.round(daysAgo)).toBe(90);
    const users = await call(app, 'listUsers', { key: demo.api_key });
    expect(users.json.data).toHaveLength(50);
  });

  it('names the step and the reference a fixture gets wrong', async () => {
    const file = join(dataDir, 'bad.yaml');
    const bad = await sandbox('seed', 'test/sandbox/fixtures/unknown-reference.yaml');
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('step "loan"');
    expect(bad.stderr).toContain('"borrower", which is not an earlier step');
    writeFileSync(file, 'steps:\n  - name: x\n    op: makeMoney\n');
    const unknown = await sandbox('seed', file);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('steps.0.op: not an operation of the API');
  });
});

describe('sandbox org create and product create', () => {
  it('stamp the sandbox clock, as the API does', async () => {
    await sandbox('clock', 'set', '2026-01-01T09:00:00Z');
    const made = await sandbox('org', 'create', '--name', 'Clocked Lender', '--json');
    expect(made.exitCode).toBe(0);
    const { org_id } = made.json<{ org_id: number }>();
    const db = new DatabaseSync(dbPathFor(dataDir), { readOnly: true });
    const row = db.prepare('SELECT created_at FROM organisations WHERE id = ?').get(org_id) as { created_at: string };
    db.close();
    expect(row.created_at.slice(0, 10)).toBe('2026-01-01');
  });
});

describe('reset and restore ask first (they destroy data)', () => {
  it('without a terminal they need --yes: exit 2 naming it, nothing removed', async () => {
    await createUser('stays@example.com');
    expect((await sandbox('snapshot', 'empty-later')).exitCode).toBe(0);
    for (const args of [['reset'], ['reset', '--all'], ['restore', 'empty-later']]) {
      const refused = await sandbox(...args);
      expect(refused.exitCode, args.join(' ')).toBe(2);
      expect(refused.stderr).toContain(`loanctl sandbox ${args.join(' ')} --yes`);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(await userEmails()).toEqual(['stays@example.com']);
  });

  it('on a terminal they show what goes and stop when declined (exit 130)', async () => {
    await createUser('stays@example.com');
    await sandbox('snapshot', 'before');
    const questions: string[] = [];
    const decline = async (question: string) => {
      questions.push(question);
      return false;
    };
    const args = ['--data-dir', dataDir];
    const reset = await runCli(['sandbox', 'reset', ...args], { tty: true, prompter: { confirm: decline } });
    const restore = await runCli(['sandbox', 'restore', 'before', ...args], {
      tty: true,
      prompter: { confirm: decline },
    });
    expect([reset.exitCode, restore.exitCode]).toEqual([130, 130]);
    expect(questions[0]).toContain('Remove 1 user, 0 loan requests');
    expect(questions[1]).toContain(`Replace the sandbox's 1 user, 0 loan requests with snapshot "before" (1 user,`);
    expect(await userEmails()).toEqual(['stays@example.com']);
  });
});

describe('ids keep increasing across reset and restore', () => {
  async function createUserId(email: string): Promise<number> {
    await createUser(email);
    return findUserId(app, org, email);
  }

  it('a user made after a reset, or after restoring an older snapshot, gets an id never given before', async () => {
    const first = await createUserId('first@example.com');
    expect((await sandbox('snapshot', 'one')).exitCode).toBe(0);
    const second = await createUserId('second@example.com');
    expect((await sandbox('reset', '--yes')).exitCode).toBe(0);
    const afterReset = await createUserId('third@example.com');
    expect(afterReset).toBeGreaterThan(second);

    expect((await sandbox('restore', 'one', '--yes')).exitCode).toBe(0);
    expect(await userEmails()).toEqual(['first@example.com']);
    const afterRestore = await createUserId('fourth@example.com');
    expect(afterRestore).toBeGreaterThan(afterReset);
    expect(first).toBeLessThan(second);
  });

  it('reset --all: the new demo organisation gets a new id too', async () => {
    const reset = await sandbox('reset', '--all', '--yes', '-o', 'json');
    expect(reset.json<{ org_id: number }>().org_id).toBeGreaterThan(org.org_id);
  });
});

describe('the control verbs print through -o and --fields', () => {
  it('snapshot list, status, faults list, org create: json, csv and --fields; --json is -o json', async () => {
    await sandbox('snapshot', 'first');
    const listed = await runCli([
      'sandbox',
      'snapshot',
      'list',
      '--data-dir',
      dataDir,
      '-o',
      'csv',
      '--fields',
      'name',
    ]);
    expect(listed.stdout).toBe('name\nfirst\n');
    const alias = await sandbox('snapshot', 'list', '--json');
    expect(alias.json<Array<{ name: string }>>()[0]?.name).toBe('first');

    const status = await sandbox('status', '-o', 'json');
    expect(status.exitCode).toBe(4);
    expect(status.json()).toEqual({ running: false, data_dir: dataDir });

    await sandbox('faults', 'add', '--path', '/api/v1/user', '--status', '503');
    const faults = await sandbox('faults', 'list', '-o', 'ndjson', '--fields', 'id,http');
    expect(faults.stdout).toBe('{"id":1,"http":503}\n');

    const made = await sandbox('org', 'create', '--name', 'Second', '-o', 'csv', '--fields', 'org_id');
    expect(made.stdout).toMatch(/^org_id\n\d+\n$/);
    const clock = await sandbox('clock', '-o', 'json', '--fields', 'offset_ms');
    expect(clock.json()).toEqual({ offset_ms: 0 });
  });

  it('product create, status, faults add and faults clear: -o and --fields as for any data', async () => {
    const product = await sandbox(
      'product',
      'create',
      '--org',
      String(org.org_id),
      '--name',
      'Second Loan',
      '-o',
      'csv',
      '--fields',
      'slug',
    );
    expect(product.stdout).toBe('slug\nsecond-loan\n');
    const status = await sandbox('status', '-o', 'csv', '--fields', 'running');
    expect(status.stdout).toBe('running\nfalse\n');

    const added = await sandbox(
      'faults',
      'add',
      '--path',
      '/api/v1/user',
      '--status',
      '503',
      '-o',
      'json',
      '--fields',
      'id,path,http',
    );
    expect(added.json()).toEqual({ id: 1, path: '/api/v1/user', http: 503 });
    const refused = await sandbox('faults', 'clear', '1', '-o', 'json', '--fields', 'nope');
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--fields: unknown field "nope"');
    const kept = await sandbox('faults', 'list', '-o', 'json', '--fields', 'id');
    expect(kept.json()).toEqual([{ id: 1 }]);
    const cleared = await sandbox('faults', 'clear', '1', '-o', 'ndjson', '--fields', 'id,http');
    expect(cleared.stdout).toBe('{"id":1,"http":503}\n');
    expect(cleared.stderr).toBe('Removed fault #1.\n');

    await sandbox('faults', 'add', '--path', '/api/**', '--status', '500');
    const all = await sandbox('faults', 'clear', '-o', 'csv', '--fields', 'id,path');
    expect(all.stdout).toBe('id,path\n2,/api/**\n');
    const none = await sandbox('faults', 'clear', '-o', 'json');
    expect(none.json()).toEqual([]);
    expect(none.stderr).toBe('Removed 0 faults.\n');
  });

  it('--json with another -o, or --fields naming no field, is a usage error before anything is done', async () => {
    const both = await sandbox('snapshot', 'list', '--json', '-o', 'csv');
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('--json is -o json');
    const unknown = await sandbox('snapshot', 'list', '-o', 'json', '--fields', 'nope');
    expect(unknown.exitCode).toBe(2);
    const empty = await sandbox('snapshot', 'list', '-o', 'json', '--fields', 'name');
    expect(empty.json()).toEqual([]);
  });

  it('a --fields naming none of its fields stops a reset or an org create before it is done', async () => {
    await createUser('stays@example.com');
    const reset = await sandbox('reset', '--yes', '-o', 'json', '--fields', 'users');
    expect(reset.exitCode).toBe(2);
    expect(reset.stderr).toContain('removed.users');
    expect(await userEmails()).toEqual(['stays@example.com']);
    const org = await sandbox('org', 'create', '--name', 'Keyless', '-o', 'json', '--fields', 'key');
    expect(org.exitCode).toBe(2);
    const db = new DatabaseSync(dbPathFor(dataDir), { readOnly: true });
    const named = db.prepare("SELECT count(*) AS n FROM organisations WHERE name = 'Keyless'").get() as { n: number };
    db.close();
    expect(named.n).toBe(0);
  });
});

describe('migration 5 (AUTOINCREMENT ids)', () => {
  it('keeps every row, id and reference of a data dir made before it', () => {
    const dir = tempDir();
    const path = dbPathFor(dir);
    const old = new DatabaseSync(path);
    for (const migration of MIGRATIONS.slice(0, 4)) old.exec(migration);
    old.exec(`PRAGMA user_version = 4;
      INSERT INTO organisations VALUES (7, 'Old Lender', 't');
      INSERT INTO products VALUES (3, 7, 'Loan', 'loan', 't');
      INSERT INTO users (id, org_id, firstname, lastname, email, phone, gender, password_hash, reference, source,
                         is_active, created_at, updated_at, org_seq)
        VALUES (41, 7, 'Ada', 'L', 'ada@example.com', '+234', 'female', 'h', 'u-41', 'api', 1, 't', 't', 1);
      INSERT INTO loan_requests (id, org_id, user_id, product_id, reference, amount, purpose, status, lender_status,
                                 user_status, active, debit_mandate_next_step, created_at, updated_at)
        VALUES (90, 7, 41, 3, 'l-90', 1000, 'stock', 'saved', 'pending', 'pending', 1, 'none', 't', 't');`);
    const before = ['organisations', 'products', 'users', 'loan_requests'].map((table) =>
      old.prepare(`SELECT * FROM ${table}`).all(),
    );
    old.close();

    const db = SandboxDb.open(path);
    try {
      expect(db.version()).toBe(MIGRATIONS.length);
      const after = ['organisations', 'products', 'users', 'loan_requests'].map((table) =>
        db.sqlite.prepare(`SELECT * FROM ${table}`).all(),
      );
      // Later migrations drop some columns and add others: every row stays, and so does every
      // value of a column that is still there.
      const kept = (rows: Record<string, unknown>[][], like: Record<string, unknown>[][]) =>
        rows.map((table, index) => {
          const columns = Object.keys(before[index]?.[0] ?? {}).filter((name) => name in (like[index]?.[0] ?? {}));
          return table.map((row) => Object.fromEntries(columns.map((name) => [name, row[name]])));
        });
      expect(after.map((table) => table.length)).toEqual(before.map((table) => table.length));
      expect(kept(after, after)).toEqual(kept(before, after));
      expect(db.sqlite.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
      const sequences = db.sqlite.prepare('SELECT name, seq FROM sqlite_sequence WHERE seq > 0 ORDER BY name').all();
      expect(sequences.map((row) => ({ ...row }))).toEqual([
        { name: 'loan_requests', seq: 90 },
        { name: 'organisations', seq: 7 },
        { name: 'products', seq: 3 },
        { name: 'users', seq: 41 },
      ]);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

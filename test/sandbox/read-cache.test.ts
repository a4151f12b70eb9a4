// The list GET reuses API key owners, products and each loan request's JSON between requests
// (src/sandbox/read-cache.ts) only while the database is unchanged: by this server or by any
// other process.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOrganisation } from '../../src/sandbox/admin.js';
import { dbPathFor, SandboxDb } from '../../src/sandbox/db.js';
import { MESSAGES } from '../../src/sandbox/envelope.js';
import { ReadCache } from '../../src/sandbox/read-cache.js';
import { createRepos, type KeyOwner } from '../../src/sandbox/repos/index.js';
import { hashApiKey } from '../../src/sandbox/secrets.js';
import { call, openSandbox, seedLoanRequest, type TestSandbox, tempDir } from '../helpers/sandbox.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const purposes = (json: Record<string, unknown>) =>
  ((json.data as { loan_requests: { purpose: string }[] }).loan_requests ?? []).map((item) => item.purpose);

it('answers a list with what the database holds after a write of this server', async () => {
  sandbox = await openSandbox();
  const { app, org } = sandbox;
  const { loanRequestId } = await seedLoanRequest(app, org);
  const list = () =>
    call(app, 'listLoanRequests', { key: org.api_key, productId: org.product_id, query: { direction: 'DESC' } });
  expect(purposes((await list()).json)).toEqual(['stock']);
  expect(purposes((await list()).json)).toEqual(['stock']);
  const on = { key: org.api_key, params: { id: loanRequestId }, productId: org.product_id };
  await call(app, 'updateLoanRequest', { ...on, body: { purpose: 'rent' } });
  expect(purposes((await list()).json)).toEqual(['rent']);
  await call(app, 'deleteLoanRequest', on);
  expect(purposes((await list()).json)).toEqual([]);
});

it('sees at once a key and a change written by another process', async () => {
  sandbox = await openSandbox();
  const { app, org, dbPath } = sandbox;
  await seedLoanRequest(app, org);
  const key = 'sk_test_created_elsewhere';
  const list = (apiKey: string) =>
    call(app, 'listLoanRequests', { key: apiKey, productId: org.product_id, query: { direction: 'ASC' } });
  expect((await list(key)).http).toBe(401);
  expect(purposes((await list(org.api_key)).json)).toEqual(['stock']);

  const other = SandboxDb.open(dbPathFor(sandbox.dataDir));
  createRepos(other).organisations.addKey(org.org_id, hashApiKey(key), new Date().toISOString());
  other.close();
  expect((await list(key)).http).toBe(200);

  const raw = new DatabaseSync(dbPath);
  raw.exec("UPDATE users SET lastname = 'Elsewhere'");
  raw.close();
  const fullnames = (await list(key)).json.data as { loan_requests: { fullname: string }[] };
  expect(fullnames.loan_requests.map((item) => item.fullname.split(' ').at(-1))).toEqual(['Elsewhere']);
});

it('gives a list reply kept for one key to that key and URL only', async () => {
  sandbox = await openSandbox();
  const { app, org } = sandbox;
  await seedLoanRequest(app, org);
  const second = sandbox.addOrg('Second Lender');
  const list = (key: string | null, query: Record<string, string> = { direction: 'DESC' }) =>
    call(app, 'listLoanRequests', { key, productId: org.product_id, query });
  const first = await list(org.api_key);
  expect(purposes(first.json)).toEqual(['stock']);
  // The same URL again: the same bytes. With another organisation's key, a wrong key or none:
  // what that caller gets, as if nothing had been kept.
  expect((await list(org.api_key)).raw).toBe(first.raw);
  const other = await list(second.api_key);
  expect([other.http, other.json.status, other.json.message]).toEqual([200, 'no-access', MESSAGES.noAccessProduct]);
  expect((await list('sk_test_not_a_key')).http).toBe(401);
  expect((await list(null)).http).toBe(401);
  // The same caller with another URL: checked and answered for that URL.
  expect((await list(org.api_key, { direction: 'sideways' })).http).toBe(400);
  expect(purposes((await list(org.api_key, { direction: 'ASC', limit: '1' })).json)).toEqual(['stock']);
  expect((await list(org.api_key)).raw).toBe(first.raw);
});

// The change check itself, on a ReadCache over its own connection: both ways of seeing the commits
// of other connections (the WAL index header, where it can be read, and PRAGMA data_version).
// A cache that forgot everything on every request would pass the "sees" tests, so each test also
// proves that the cache is used while nothing changes.
describe.each(['wal-index', 'data_version'] as const)('ReadCache watching %s', (watch) => {
  let dataDir: string;
  let db: SandboxDb;
  let cache: ReadCache;
  let loads = 0;
  /** The owner of one digest through the cache; `loads` counts the times it read the database. */
  const owner = () => {
    cache.refresh();
    return cache.keyOwner('digest', () => {
      loads++;
      const row = db.sqlite.prepare('SELECT id, name FROM organisations ORDER BY id LIMIT 1').get() as
        | { id: number; name: string }
        | undefined;
      return row && ({ org_id: row.id, org_name: row.name } as unknown as KeyOwner);
    });
  };
  const name = () => (owner() as unknown as { org_name: string } | undefined)?.org_name;
  /** Runs `sql` on the database from a separate Node process. */
  const inOtherProcess = (sql: string) => {
    const script = `const { DatabaseSync } = require('node:sqlite');
      const db = new DatabaseSync(process.argv[1], { timeout: 5000 });
      db.exec(process.argv[2]);
      db.close();`;
    const result = spawnSync(process.execPath, ['-e', script, dbPathFor(dataDir), sql], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
  };

  beforeEach(() => {
    dataDir = tempDir();
    createOrganisation(dataDir, 'Before');
    db = SandboxDb.open(dbPathFor(dataDir));
    cache = new ReadCache(db, { walIndex: watch === 'wal-index' });
    loads = 0;
  });
  afterEach(() => {
    db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`watches ${watch}`, () => {
    // On Linux the header is read; elsewhere the cache keeps to the pragma.
    const expected = watch === 'wal-index' && process.platform !== 'linux' ? 'data_version' : watch;
    expect(cache.watch).toBe(expected);
  });

  it('keeps what it read while nothing is written (reads and a passive checkpoint of others)', () => {
    expect(name()).toBe('Before');
    const other = new DatabaseSync(dbPathFor(dataDir));
    other.prepare('SELECT count(*) FROM organisations').get();
    other.exec('PRAGMA wal_checkpoint(PASSIVE)');
    other.close();
    inOtherProcess('SELECT count(*) FROM organisations');
    expect(name()).toBe('Before');
    expect(loads).toBe(1);
  });

  it('sees a commit of a second SandboxDb connection on the same file', () => {
    expect(name()).toBe('Before');
    const other = SandboxDb.open(dbPathFor(dataDir));
    other.sqlite.exec("UPDATE organisations SET name = 'Second connection'");
    expect(name()).toBe('Second connection');
    other.transaction(() => other.sqlite.exec("UPDATE organisations SET name = 'In a transaction'"));
    expect(name()).toBe('In a transaction');
    other.close();
    expect(name()).toBe('In a transaction');
    expect(loads).toBe(3);
  });

  it('sees a commit of another process', () => {
    expect(name()).toBe('Before');
    inOtherProcess("UPDATE organisations SET name = 'Other process'");
    expect(name()).toBe('Other process');
    expect(name()).toBe('Other process');
    expect(loads).toBe(2);
  });

  it('sees a commit after a checkpoint that truncates the WAL (the WAL restarted)', () => {
    inOtherProcess("UPDATE organisations SET name = 'In the WAL'");
    expect(name()).toBe('In the WAL');
    inOtherProcess('PRAGMA wal_checkpoint(TRUNCATE)');
    expect(name()).toBe('In the WAL');
    inOtherProcess("UPDATE organisations SET name = 'After the restart'");
    expect(name()).toBe('After the restart');
    inOtherProcess("UPDATE organisations SET name = 'Once more'");
    expect(name()).toBe('Once more');
  });

  it('sees the commits of its own connection, and forgets what a rolled-back write showed it', () => {
    expect(name()).toBe('Before');
    db.sqlite.exec("UPDATE organisations SET name = 'Own commit'");
    expect(name()).toBe('Own commit');
    db.sqlite.exec('BEGIN IMMEDIATE');
    db.sqlite.exec("UPDATE organisations SET name = 'Rolled back'");
    expect(name()).toBe('Rolled back');
    db.sqlite.exec('ROLLBACK');
    expect(name()).toBe('Own commit');
  });

  it('cannot be left behind by a switch out of WAL mode: no other connection can make it', () => {
    expect(name()).toBe('Before');
    const other = new DatabaseSync(dbPathFor(dataDir), { timeout: 100 });
    expect(() => other.exec('PRAGMA journal_mode = DELETE')).toThrow(/locked/);
    other.close();
    expect(db.sqlite.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
  });
});

it('keeps to PRAGMA data_version for a database with no WAL index (in memory)', () => {
  const db = SandboxDb.open(':memory:');
  try {
    expect(new ReadCache(db).watch).toBe('data_version');
  } finally {
    db.close();
  }
});

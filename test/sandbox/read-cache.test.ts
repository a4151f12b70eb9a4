// The list GET reuses API key owners, products and each loan request's JSON between requests
// (src/sandbox/read-cache.ts) only while the database is unchanged: by this server or by any
// other process.
import { rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, expect, it } from 'vitest';
import { createOrganisation } from '../../src/sandbox/admin.js';
import { dbPathFor, SandboxDb } from '../../src/sandbox/db.js';
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

it('forgets what it read after a write of its own connection that was then rolled back', () => {
  const dataDir = tempDir();
  createOrganisation(dataDir, 'Before');
  const db = SandboxDb.open(dbPathFor(dataDir));
  try {
    const cache = new ReadCache(db);
    const name = () => {
      cache.refresh();
      const row = db.sqlite.prepare('SELECT id, name FROM organisations ORDER BY id LIMIT 1').get() as {
        id: number;
        name: string;
      };
      return (
        cache.keyOwner('digest', () => ({ org_id: row.id, org_name: row.name }) as unknown as KeyOwner) as unknown as {
          org_name: string;
        }
      ).org_name;
    };
    expect(name()).toBe('Before');
    db.sqlite.exec('BEGIN IMMEDIATE');
    db.sqlite.exec("UPDATE organisations SET name = 'Rolled back'");
    expect(name()).toBe('Rolled back');
    db.sqlite.exec('ROLLBACK');
    expect(name()).toBe('Before');
  } finally {
    db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

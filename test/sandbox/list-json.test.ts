/**
 * The loan request list's page is written by SQLite (src/sandbox/serialize.ts `jsonSql`,
 * docs/decisions/sql-json.md): its reply must be, byte for byte, what the serialiser and
 * JSON.stringify write of the same rows — numbers (1000, not 1000.0; 0.7999999999999999, not
 * 0.79999999999999993), booleans, text of every kind, fields left out while unset, zero timestamps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDS } from '../../src/contract/records.js';
import { createProduct } from '../../src/sandbox/admin.js';
import { dbPathFor, SandboxDb } from '../../src/sandbox/db.js';
import { createRepos, type Repos } from '../../src/sandbox/repos/index.js';
import * as serialize from '../../src/sandbox/serialize.js';
import {
  call,
  loanRequestReadyFor,
  openSandbox,
  sampleBody,
  sampleQuery,
  seedLoanRequest,
  type TestSandbox,
} from '../helpers/sandbox.js';

let sandbox: TestSandbox;
let db: SandboxDb;
let repos: Repos;
beforeAll(async () => {
  sandbox = await openSandbox();
  db = SandboxDb.open(dbPathFor(sandbox.dataDir));
  repos = createRepos(db);
});
afterAll(async () => {
  db.close();
  await sandbox.close();
});

/** Amounts whose text JSON.stringify and SQLite may write differently. */
const AMOUNTS = [
  50_000,
  1000.5,
  1234.56,
  1_133_569_955.9428, // SQLite 3.53's JSON writes 1133569955.9428001
  435_507_026_728.64,
  0.1 + 0.2, // 0.30000000000000004: 17 digits
  0.1 + 0.7, // 0.7999999999999999: 16 digits, where SQLite writes 17
  1 / 3,
  123_456.789_01,
  0.0001,
  0.000_012_3, // JavaScript writes 0.0000123, C's %g 1.23e-05
  999_999_999_999_999,
  1e15,
  2 ** 53,
  2 ** 53 + 2, // past what a JavaScript number holds exactly
  1e21, // JavaScript writes 1e+21
  1.7976931348623157e308,
];

/** Text that needs escapes, or none where another writer might add one. */
const PURPOSES = [
  'plain',
  'quote " and backslash \\ and slash /',
  'control \u0001 \u001f \b \f \n \r \t and DEL \u007f',
  'line separators \u2028 \u2029',
  'accents é ü ñ, emoji 😀, and \uffff',
  '</script><!-- -->',
  ...(process.versions.node.startsWith('22.') ? [] : ['a NUL \u0000 inside']),
];

/** What the list answered before SQLite wrote it: the rows serialised, JSON.stringify over the envelope. */
function expectedPage(direction: 'ASC' | 'DESC', cursor: number, limit: number): string {
  const rows = repos.loanRequests.page(sandbox.org.org_id, sandbox.org.product_id, direction, cursor, limit);
  return JSON.stringify({
    status: 'success',
    message: 'Loan requests retrieved successfully',
    data: { loan_requests: rows.map(serialize.loanRequest), cursor: rows.at(-1)?.id ?? 0 },
  });
}

describe('the loan request list, written by SQLite', () => {
  it('answers each page byte for byte as JSON.stringify of the serialised rows', async () => {
    const { userId } = await seedLoanRequest(sandbox.app, sandbox.org);
    const on = { key: sandbox.org.api_key, params: { user_id: userId }, productId: sandbox.org.product_id };
    for (const purpose of PURPOSES) {
      const created = await call(sandbox.app, 'createLoanRequest', { ...on, body: { amount: 1000, purpose } });
      expect(created.json.status, created.raw).toBe('success');
    }
    // Approved (terms set, fractions), tokenized (a list), with progress: everything set.
    const { loanRequestId } = await loanRequestReadyFor(sandbox.app, sandbox.org, 'approveLoanRequest');
    const target = { key: sandbox.org.api_key, params: { id: loanRequestId }, productId: sandbox.org.product_id };
    const approval = { ...sampleBody('approveLoanRequest', sandbox.org.org_id), approved_amount: 1234.5, rate: 7.25 };
    const approved = await call(sandbox.app, 'approveLoanRequest', {
      ...target,
      query: sampleQuery('approveLoanRequest'),
      body: approval,
    });
    expect(approved.json.status, approved.raw).toBe('success');
    expect((await call(sandbox.app, 'tokenizeLinker', target)).json.status).toBe('success');
    // Amounts the API refuses or never sees, written straight into the rows.
    for (const amount of AMOUNTS) {
      repos.loanRequests.create({
        org_id: sandbox.org.org_id,
        user_id: userId,
        product_id: sandbox.org.product_id,
        reference: `LR-JSON-${amount}`,
        amount,
        purpose: 'amount',
        now: '2026-03-02T09:30:00.123Z',
      });
    }

    for (const direction of ['ASC', 'DESC'] as const) {
      for (const limit of [1, 3, 100]) {
        const first = direction === 'DESC' ? Number.MAX_SAFE_INTEGER : 0;
        let cursor = first;
        for (let pages = 0; pages < 40; pages++) {
          const query = { direction, limit, ...(cursor === first ? {} : { cursor }) };
          const list = await call(sandbox.app, 'listLoanRequests', { ...on, params: {}, query });
          expect(list.raw, `${direction} limit ${limit} after ${cursor}`).toBe(expectedPage(direction, cursor, limit));
          cursor = (list.json.data as { cursor: number }).cursor;
          if (cursor === 0) break;
        }
        expect(cursor).toBe(0);
      }
    }
  });

  it('writes a row SQLite writes as JavaScript does, and leaves to the serialiser only the rest', () => {
    const rows = repos.loanRequests.page(sandbox.org.org_id, sandbox.org.product_id, 'ASC', 0, 1000);
    const written = repos.loanRequests.pageJson(sandbox.org.org_id, sandbox.org.product_id, 'ASC', 0, 1000);
    expect(written.map((row) => row.id)).toEqual(rows.map((row) => row.id));
    const left: unknown[] = [];
    rows.forEach((row, at) => {
      const json = written[at]?.json;
      if (json === null) left.push(row.linker_ids ?? row.amount);
      else expect(json).toBe(JSON.stringify(serialize.loanRequest(row)));
    });
    // Only a list (JSON text the serialiser parses) and the numbers whose text could differ.
    expect(left).toEqual([
      expect.stringMatching(/^\["lnk_\w+"\]$/),
      0.1 + 0.2,
      0.1 + 0.7,
      1 / 3,
      0.000_012_3,
      2 ** 53,
      2 ** 53 + 2,
      1e21,
      1.7976931348623157e308,
    ]);
    expect(serialize.jsonSql(RECORDS.loanRequest)).toMatch(/^concat\(/);
  });

  it('writes every amount to the kobo itself, each as JavaScript does, and any other number so or not at all', () => {
    const product = createProduct(sandbox.dataDir, sandbox.org.org_id, 'Amounts').product_id;
    const { id: userId } = repos.users.page(sandbox.org.org_id, 0, 1)[0] as { id: number };
    // A fixed sequence of pseudo-random numbers (a linear congruential generator): the same every run.
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const kobo = Array.from({ length: 1500 }, (_, at) => Math.round(random() * 10 ** (2 + (at % 13))) / 100);
    const anyNumber = Array.from({ length: 1500 }, (_, at) => random() * 10 ** ((at % 24) - 6));
    db.transaction(() => {
      for (const amount of [...kobo, ...anyNumber]) {
        repos.loanRequests.create({
          org_id: sandbox.org.org_id,
          user_id: userId,
          product_id: product,
          reference: `LR-RANDOM-${amount}-${random()}`,
          amount,
          purpose: 'random',
          now: '2026-03-02T09:30:00.123Z',
        });
      }
    });
    const rows = repos.loanRequests.page(sandbox.org.org_id, product, 'ASC', 0, 10_000);
    const written = repos.loanRequests.pageJson(sandbox.org.org_id, product, 'ASC', 0, 10_000);
    expect(written).toHaveLength(kobo.length + anyNumber.length);
    rows.forEach((row, at) => {
      const json = written[at]?.json ?? null;
      if (at < kobo.length) expect(json, String(row.amount)).not.toBeNull();
      if (json !== null) expect(json, String(row.amount)).toBe(JSON.stringify(serialize.loanRequest(row)));
    });
  });
});

/**
 * A mixed read/write load on a real sandbox process:
 * `clients` concurrent clients, each in a loop until the time is up, pick an operation (creates,
 * duplicate creates racing on a few shared e-mails, attachments, updates, submits, and the reads)
 * and record what the sandbox answered. Used by test/hardening/mixed-load.test.ts (a few seconds,
 * in `npm test`) and test/load/mixed-load.load.ts (64 clients for 30 s, `npm run test:load`).
 *
 * The rules checked by `expectSound`:
 * - every reply is HTTP 200 with status `success`, except `exists` for a create whose e-mail is
 *   already there — nothing else is allowed by the spec for these well-formed requests;
 * - no request fails in transport;
 * - the rows in the database equal the successes the clients saw, table by table.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cleanEnv, http, removeTemps, type SandboxProc, startSandbox, temp } from './helpers.js';

interface LoadTarget {
  url: string;
  key: string;
  product: number;
  dataDir: string;
}

interface LoadReport {
  operations: number;
  byKind: Record<string, number>;
  /** Successful writes, by table. */
  created: { users: number; loan_requests: number; guarantors: number; bank_details: number; documents: number };
  /** Anything the spec does not allow for these requests. */
  unexpected: string[];
  /** The rows of the database, by table, before the load. */
  before: Record<string, number>;
}

const TABLES = ['users', 'loan_requests', 'guarantors', 'bank_details', 'documents'] as const;

function person(email: string) {
  return { firstname: 'Ada', lastname: 'Load', email, password: 'pw', phone: '+2348012345678', gender: 'female' };
}

function countRows(dataDir: string): Record<string, number> {
  const db = new DatabaseSync(join(dataDir, 'sandbox.db'), { readOnly: true });
  try {
    return Object.fromEntries(
      TABLES.map((table) => [table, (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n]),
    );
  } finally {
    db.close();
  }
}

async function runMixedLoad(
  target: LoadTarget,
  options: { clients: number; durationMs: number; minOperations?: number },
) {
  const { url, key, product } = target;
  const before = countRows(target.dataDir);
  const report: LoadReport = {
    operations: 0,
    byKind: {},
    created: { users: 0, loan_requests: 0, guarantors: 0, bank_details: 0, documents: 0 },
    unexpected: [],
    before,
  };

  // Borrowers to hang loan requests on (their ids found through the list, as a client must).
  const seedEmails = [0, 1, 2, 3].map((i) => `seed${i}.${Date.now()}@load.example`);
  for (const email of seedEmails) {
    const reply = await http(url, key, 'POST', '/api/v1/user', person(email));
    if (reply.json.status !== 'success') throw new Error(`seed: ${JSON.stringify(reply.json)}`);
    report.created.users++;
  }
  const listed = await http(url, key, 'GET', '/api/v1/user');
  const userIds = (listed.json.data as Array<{ id: number; email: string }>)
    .filter((row) => seedEmails.includes(row.email))
    .map((row) => row.id);
  if (userIds.length !== seedEmails.length) throw new Error('seed users not found in the list');

  const loans: number[] = [];
  const withInfo = new Set<number>();
  const shared = Array.from({ length: 12 }, (_, i) => `shared${i}.${Date.now()}@load.example`);
  const deadline = Date.now() + options.durationMs;
  let unique = 0;
  const q = `product-id=${product}`;
  const pick = <T>(items: readonly T[], r: number): T => items[r % items.length] as T;

  type Op = {
    kind: string;
    method: string;
    path: string;
    body?: unknown;
    allow?: string[];
    after?: (data: unknown) => void;
  };
  const nextOp = (r: number): Op => {
    const loan = loans.length > 0 ? pick(loans, r >>> 4) : undefined;
    const choice = r % 16;
    if (loan === undefined || choice < 2) {
      return {
        kind: 'createLoanRequest',
        method: 'POST',
        path: `/api/v1/user/${pick(userIds, r >>> 4)}/loan_request?${q}`,
        body: { amount: 1000 + (r % 9000), purpose: `load ${r}` },
        after: (data) => {
          report.created.loan_requests++;
          loans.push((data as { id: number }).id);
        },
      };
    }
    switch (choice) {
      case 2:
        unique++;
        return {
          kind: 'createUser',
          method: 'POST',
          path: '/api/v1/user',
          body: person(`u${unique}.${r}@load.example`),
          after: () => report.created.users++,
        };
      case 3:
        // Many clients racing to create the same few e-mails: one success each, the rest `exists`.
        return {
          kind: 'createUser (shared e-mail)',
          method: 'POST',
          path: '/api/v1/user',
          body: person(pick(shared, r >>> 4)),
          allow: ['exists'],
          after: () => report.created.users++,
        };
      case 4:
        return {
          kind: 'userExists',
          method: 'GET',
          path: `/api/v1/user/actions?action=exists&email=${encodeURIComponent(pick(shared, r >>> 4))}`,
        };
      case 5:
        return { kind: 'listUsers', method: 'GET', path: `/api/v1/user?pages=${1 + ((r >>> 4) % 3)}` };
      case 6:
        return { kind: 'listLoanRequests', method: 'GET', path: `/api/v1/loan_request?${q}&direction=DESC&limit=20` };
      case 7:
        return {
          kind: 'updateLoanRequest',
          method: 'PUT',
          path: `/api/v1/loan_request/${loan}?${q}`,
          body: { purpose: `updated ${r}` },
        };
      case 8:
        return {
          kind: 'addGuarantor',
          method: 'POST',
          path: `/api/v1/loan_request/${loan}/guarantor?${q}`,
          body: {
            firstname: 'Chi',
            lastname: 'Eze',
            gender: 'male',
            relationship: 'brother',
            email: 'chi@load.example',
            phone: '+2348055555555',
          },
          after: () => {
            report.created.guarantors++;
            withInfo.add(loan);
          },
        };
      case 9:
        return { kind: 'getGuarantors', method: 'GET', path: `/api/v1/loan_request/${loan}/guarantor?${q}` };
      case 10:
        return {
          kind: 'addBankDetails',
          method: 'POST',
          path: `/api/v1/loan_request/${loan}/bank_details?${q}`,
          body: { code: '058', account_name: 'Ada Load', account_number: '0123456789', bank_name: 'GTBank' },
          after: () => {
            report.created.bank_details++;
            withInfo.add(loan);
          },
        };
      case 11:
        return { kind: 'getBankDetails', method: 'GET', path: `/api/v1/loan_request/${loan}/bank_details?${q}` };
      case 12:
        return {
          kind: 'uploadDocument',
          method: 'POST',
          path: `/api/v1/loan_request/${loan}/upload?${q}`,
          body: {
            type: 'passport',
            title: 'Passport',
            number: `A${r}`,
            document_url: 'https://files.example.com/p.jpg',
          },
          after: () => {
            report.created.documents++;
            withInfo.add(loan);
          },
        };
      case 13:
        return { kind: 'getProgress', method: 'GET', path: `/api/v1/loan_request/${loan}/progress?${q}` };
      case 14: {
        const ready = [...withInfo];
        if (ready.length === 0)
          return { kind: 'getEmployment', method: 'GET', path: `/api/v1/loan_request/${loan}/employment?${q}` };
        return {
          kind: 'submitLoanRequest',
          method: 'PUT',
          path: `/api/v1/loan_request/${pick(ready, r >>> 4)}/submit?${q}`,
        };
      }
      default:
        return { kind: 'getEmployment', method: 'GET', path: `/api/v1/loan_request/${loan}/employment?${q}` };
    }
  };

  // A small deterministic generator per client (xorshift), so a run's mix does not depend on Math.random.
  const client = async (c: number) => {
    let state = 0x9e3779b9 ^ (c * 7919 + 1);
    const rand = () => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return state >>> 0;
    };
    // At least `durationMs`, and on a starved machine until `minOperations` are done: the test is
    // about what the sandbox answers under concurrency, not how fast (that is bench/).
    while (Date.now() < deadline || report.operations <= (options.minOperations ?? 0)) {
      const op = nextOp(rand());
      report.operations++;
      report.byKind[op.kind] = (report.byKind[op.kind] ?? 0) + 1;
      try {
        const reply = await http(url, key, op.method, op.path, op.body);
        const allowed = ['success', ...(op.allow ?? [])];
        if (reply.http !== 200 || !allowed.includes(reply.json.status)) {
          report.unexpected.push(
            `${op.kind} ${op.method} ${op.path}: HTTP ${reply.http} ${JSON.stringify(reply.json)}`,
          );
        } else if (reply.json.status === 'success') {
          op.after?.(reply.json.data);
        }
      } catch (error) {
        report.unexpected.push(`${op.kind} ${op.method} ${op.path}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, c) => client(c)));
  return report;
}

/** No reply the spec does not allow, and the database's counts equal the successes the clients saw. */
function expectSound(report: LoadReport, dataDir: string): void {
  expect(report.unexpected.slice(0, 10)).toEqual([]);
  const after = countRows(dataDir);
  for (const table of TABLES) {
    expect((after[table] ?? 0) - (report.before[table] ?? 0), table).toBe(report.created[table]);
  }
}

/**
 * The whole test, for the two files that run it: a real sandbox process, `clients` clients for
 * `durationMs`, every rule of `expectSound`, more than `minOperations` operations, and nothing on
 * the sandbox's stderr.
 */
export function mixedLoadTest(options: {
  clients: number;
  durationMs: number;
  minOperations: number;
  timeoutMs: number;
  /** Print the counts of each kind of operation (the long run, for CI's log). */
  print?: boolean;
}): void {
  let sandbox: SandboxProc;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = temp('loanctl-load-');
    sandbox = await startSandbox(dataDir, cleanEnv());
  });
  afterAll(async () => {
    await sandbox?.kill9();
    removeTemps();
  });
  const seconds = options.durationMs / 1000;
  it(
    `${options.clients} clients, ${seconds} s of mixed reads and writes: only allowed replies, and rows = successes`,
    async () => {
      const { url, api_key: key, product_id: product } = sandbox.line;
      const report = await runMixedLoad({ url, key, product, dataDir }, options);
      if (options.print) {
        process.stdout.write(`mixed load: ${report.operations} operations ${JSON.stringify(report.byKind)}\n`);
      }
      expectSound(report, dataDir);
      expect(report.operations).toBeGreaterThan(options.minOperations);
      expect(sandbox.stderr()).toBe('');
    },
    options.timeoutMs,
  );
}

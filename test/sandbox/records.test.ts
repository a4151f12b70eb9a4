/**
 * The record descriptions (src/contract/records.ts) hold for the real sandbox: each reply it
 * sends has exactly its description's fields, in the API's order, and each column a record's row
 * is read from is a column the sandbox keeps (and every column it keeps is described), so a row
 * type derived from a description is the row the database gives.
 */
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OPERATIONS,
  type OperationDef,
  type OperationKey,
  operation,
  replyRecord,
} from '../../src/contract/operations.js';
import { RECORDS, type RecordName, storedColumns } from '../../src/contract/records.js';
import { recordSuccessExamples } from '../../src/sandbox/openapi-example-flow.js';
import { LOAN_REQUEST_VIEW } from '../../src/sandbox/repos/loan-requests.js';
import { call, openSandbox, seedLoanRequest, type TestSandbox } from '../helpers/sandbox.js';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await openSandbox();
});
afterAll(() => sandbox.close());

/** The fields the sandbox answers once everything is set: all but those it never answers. */
function answered(name: RecordName, { unset = false } = {}): string[] {
  return Object.entries(RECORDS[name].fields)
    .filter(([, field]) => field.sandbox !== 'never' && !(unset && field.sandbox === 'when-set'))
    .map(([field]) => field);
}

describe('the sandbox answers each record with its description', () => {
  it('a new loan request has every field but the ones set later, in the API order', async () => {
    const { loanRequestId } = await seedLoanRequest(sandbox.app, sandbox.org);
    const list = await call(sandbox.app, 'listLoanRequests', {
      key: sandbox.org.api_key,
      productId: sandbox.org.product_id,
      query: { direction: 'DESC', limit: 1 },
    });
    const page = list.json.data as { loan_requests: Record<string, unknown>[] };
    expect(Object.keys(list.json.data as object)).toEqual(answered('loanRequestPage'));
    expect(page.loan_requests[0]?.id).toBe(loanRequestId);
    expect(Object.keys(page.loan_requests[0] ?? {})).toEqual(answered('loanRequest', { unset: true }));
  });

  it('every record, everything set, has exactly its fields in the API order', async () => {
    // The OpenAPI examples' journey runs every operation, each move in the state table's order,
    // the reads after the last move: each record's last reply there has everything set.
    const examples: Record<string, Record<string, unknown>> = await recordSuccessExamples();
    const last = new Map<RecordName, Record<string, unknown>>();
    for (const [key, envelope] of Object.entries(examples)) {
      const { reply } = operation(key as OperationKey) as OperationDef;
      for (const [shape, payload] of [
        [reply.data, envelope.data],
        [reply.data1, envelope.data1],
      ] as const) {
        const name = shape && replyRecord(shape);
        const first = Array.isArray(payload) ? payload[0] : payload;
        if (name !== undefined && first !== null && typeof first === 'object') last.set(name, first);
      }
    }
    const replied = OPERATIONS.flatMap((row) =>
      [row.reply.data, (row.reply as OperationDef['reply']).data1].flatMap((shape) => {
        const name = shape && replyRecord(shape);
        return name === undefined ? [] : [name];
      }),
    );
    expect([...last.keys()].sort()).toEqual([...new Set(replied)].sort());
    for (const [name, reply] of last) expect(Object.keys(reply), name).toEqual(answered(name));
  });
});

/**
 * The columns a statement gives. `columns()` is newer than Node 22.13, which the sandbox supports:
 * fine here, for this file runs in the main tier on the checkout's Node 24 (the oldest-Node tier
 * runs test/e2e/oldest-node.test.ts alone), and the columns are the schema's on any Node.
 */
function columnsOf(sql: string): string[] {
  const db = new DatabaseSync(sandbox.dbPath, { readOnly: true });
  try {
    return db
      .prepare(sql)
      .columns()
      .map((column) => column.name);
  } finally {
    db.close();
  }
}

describe("each record's stored columns are the sandbox's", () => {
  /** Each record, the statement its rows are read with (by table name), and the columns no record carries. */
  const read: [RecordName[], string, string[]][] = [
    // org_seq and day_seq number the users for paging; no record carries them.
    [['userListItem', 'user'], 'users', ['org_seq', 'day_seq']],
    [['loanRequest'], 'LOAN_REQUEST_VIEW', []],
    [['bankDetails'], 'bank_details', []],
    [['guarantor'], 'guarantors', []],
    [['employment'], 'employment', []],
    [['document'], 'documents', []],
    [['business'], 'business_info', []],
  ];
  it.each(read)('%s: read from %s', (names, table, internal) => {
    const described = storedColumns(...names.map((name) => RECORDS[name]));
    const kept = columnsOf(table === 'LOAN_REQUEST_VIEW' ? LOAN_REQUEST_VIEW : `SELECT * FROM ${table}`).filter(
      (column) => !internal.includes(column),
    );
    expect(described.toSorted()).toEqual(kept.toSorted());
  });
});

/**
 * A command's table and its JSON never disagree on a value (docs/guide.md, "Output formats"):
 * for every command that prints records, each column its table shows is the value its `-o json`
 * carries at that column's name, shown the one way values are shown (src/output/format.ts). A
 * column the table fills from somewhere the JSON does not have fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLUMNS, type Column, type ResourceKind } from '../../src/output/columns.js';
import { formatCell } from '../../src/output/format.js';
import { getPath } from '../../src/output/pick.js';
import { approvalFlags } from '../helpers/cli.js';
import { seedSubmittedLoan } from '../helpers/dashboard.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';
import { call, sampleBody } from '../helpers/sandbox.js';

let sandbox: CliSandbox;
let loanId: number;
let userId: number;

beforeAll(async () => {
  sandbox = await cliSandbox();
  ({ loanId, userId } = await seedSubmittedLoan(sandbox.app, sandbox.org, { amount: 80000 }));
  const common = { key: sandbox.org.api_key, params: { id: loanId }, productId: sandbox.org.product_id };
  for (const key of ['addGuarantor', 'addEmployment'] as const) {
    const added = await call(sandbox.app, key, { ...common, body: sampleBody(key, sandbox.org.org_id) });
    expect(added.json.status, added.raw).toBe('success');
  }
  const approved = await sandbox.run(['loan', 'approve', String(loanId), ...approvalFlags(), '--yes']);
  expect(approved.exitCode, approved.stderr).toBe(0);
});
afterAll(() => sandbox?.close());

/** A cell as a table shows it: a rate reads its unit beside it (`terms.rate` beside `terms.tenured_in`). */
function shownAs(record: Record<string, unknown>, column: Column): string {
  const parent = column.key.includes('.') ? getPath(record, column.key.slice(0, column.key.lastIndexOf('.'))) : record;
  return formatCell(getPath(record, column.key), column.format, parent as Record<string, unknown>);
}

/** The table's line of each column's label (a detail table) must show the JSON's value. */
function detailAgrees(table: string, columns: readonly Column[], record: Record<string, unknown>): string[] {
  const lines = table.split('\n');
  return columns.flatMap((column) => {
    const shown = shownAs(record, column);
    const label = column.label.toLowerCase();
    const line = lines.find(
      (candidate) => candidate.toLowerCase().startsWith(`${label}  `) || candidate.toLowerCase() === label,
    );
    if (line === undefined) return [`${column.key}: no "${column.label}" row`];
    const cell = line.slice(column.label.length).trim();
    return cell === (shown === '' ? '—' : shown) || (shown === '' && cell === '')
      ? []
      : [`${column.key}: table "${cell}", json "${shown}"`];
  });
}

/** The row of each record (found by its id, the first column) must show each of its values. */
function listAgrees(table: string, columns: readonly Column[], records: readonly Record<string, unknown>[]): string[] {
  const lines = table.split('\n').slice(1);
  return records.flatMap((record) => {
    const line = lines.find((candidate) => candidate.split(/\s{2,}/)[0] === String(record[columns[0]?.key ?? 'id']));
    if (line === undefined) return [`${String(record.id)}: no row`];
    return columns.flatMap((column) => {
      const shown = shownAs(record, column);
      return shown === '' || line.includes(shown)
        ? []
        : [`${column.key} of ${String(record.id)}: "${shown}" not in "${line}"`];
    });
  });
}

async function both(argv: string[]) {
  const json = await sandbox.run([...argv, '-o', 'json']);
  const table = await sandbox.run([...argv, '-o', 'table']);
  expect(json.exitCode, json.stderr).toBe(0);
  expect(table.exitCode, table.stderr).toBe(0);
  return { json: json.json<unknown>(), table: table.stdout };
}

const detail = (kind: ResourceKind) => COLUMNS[kind].detail ?? COLUMNS[kind].list;

describe('table and JSON agree', () => {
  it.each([
    [['user', 'list'], 'userListItem'],
    [['loan', 'list'], 'loanRequest'],
    [['loan', 'queue'], 'queue'],
    [['loan', 'banks', '{loan}'], 'bankDetails'],
    [['loan', 'guarantors', '{loan}'], 'guarantor'],
  ] as const)('%j: every column of every row', async (argv, kind) => {
    const { json, table } = await both(argv.map((arg) => arg.replace('{loan}', String(loanId))));
    const records = json as Record<string, unknown>[];
    if (kind !== 'queue') expect(records.length).toBeGreaterThan(0);
    expect(listAgrees(table, COLUMNS[kind].list, records)).toEqual([]);
  });

  it('user show: every row of the detail table', async () => {
    const { json, table } = await both(['user', 'show', String(userId)]);
    expect(detailAgrees(table, detail('userListItem'), json as Record<string, unknown>)).toEqual([]);
  });

  it('loan employment: every row of the detail table', async () => {
    const { json, table } = await both(['loan', 'employment', String(loanId)]);
    expect(detailAgrees(table, detail('employment'), json as Record<string, unknown>)).toEqual([]);
  });

  it('loan show after an approval: the loan request rows are its JSON, terms and all', async () => {
    const { json, table } = await both(['loan', 'show', String(loanId)]);
    const view = json as { loan_request: Record<string, unknown> };
    const section = table.split('\n\n')[0] ?? '';
    expect(detailAgrees(section, detail('loanRequest'), view.loan_request)).toEqual([]);
    expect(getPath(view.loan_request, 'terms.approved_amount')).toBe(45000);
    expect(getPath(view.loan_request, 'terms.estimated_repayment')).toBeGreaterThan(45000);
  });
});

/**
 * `-o xlsx` (docs/guide.md, "Spreadsheets"): a list or an export as a spreadsheet that a
 * spreadsheet program reads with the right types: phones and references as text (never numbers),
 * money as numbers, timestamps as dates with the unset ones empty; a walk (`--all`) writes every
 * page; a terminal is refused, and so is a bulk run's report.
 */

import { readSheet } from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalFlags, borrower } from '../helpers/cli.js';
import { seedSubmittedLoan } from '../helpers/dashboard.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';

let sandbox: CliSandbox;

beforeAll(async () => {
  sandbox = await cliSandbox();
});
afterAll(() => sandbox?.close());

async function sheet(argv: string[]): Promise<unknown[][]> {
  const result = await sandbox.run([...argv, '-o', 'xlsx']);
  expect(result.exitCode, result.stderr).toBe(0);
  return readSheet(result.stdoutBytes);
}

describe('-o xlsx', () => {
  it('borrowers: phones and references are text, timestamps dates', async () => {
    const created = await sandbox.run(
      ['user', 'create', ...borrower('sheet@xlsx.example', '08031535642'), '--password-stdin', '-o', 'json'],
      { stdin: 'pw' },
    );
    expect(created.exitCode, created.stderr).toBe(0);
    const rows = await sheet(['user', 'list', '--fields', 'id,email,phone,created_at']);
    expect(rows[0]).toEqual(['id', 'email', 'phone', 'created_at']);
    const row = rows.find((cells) => cells[1] === 'sheet@xlsx.example') as unknown[];
    expect(typeof row[0]).toBe('number');
    expect(row[2]).toBe('+2348031535642');
    expect(row[3]).toBeInstanceOf(Date);
  });

  it('loan requests: money a number, an unset approval empty, the reference text, every page of a walk', async () => {
    const { loanId } = await seedSubmittedLoan(sandbox.app, sandbox.org, { amount: 80000 });
    await seedSubmittedLoan(sandbox.app, sandbox.org, { amount: 1234.5 });
    const approved = await sandbox.run(['loan', 'approve', String(loanId), ...approvalFlags(), '--yes']);
    expect(approved.exitCode, approved.stderr).toBe(0);
    const rows = await sheet([
      'loan',
      'list',
      '--all',
      '--limit',
      '1',
      '--fields',
      'id,reference,amount,approved_at,terms.approved_amount',
    ]);
    expect(rows[0]).toEqual(['id', 'reference', 'amount', 'approved_at', 'terms.approved_amount']);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const mine = rows.find((cells) => cells[0] === loanId) as unknown[];
    expect(typeof mine[1]).toBe('string');
    expect(mine[2]).toBe(80000);
    expect(mine[3]).toBeInstanceOf(Date);
    expect(mine[4]).toBe(45000);
    const other = rows.find((cells) => cells[2] === 1234.5) as unknown[];
    expect(other[3]).toBeNull();
  });

  it('refuses a terminal, and a bulk report, before anything is sent (exit 2)', async () => {
    const tty = await sandbox.run(['loan', 'list', '-o', 'xlsx'], { tty: true });
    expect(tty.exitCode).toBe(2);
    expect(tty.stderr).toContain('-o xlsx writes a spreadsheet file');
    expect(tty.stderr).toContain('> loans.xlsx');
    const bulk = await sandbox.run(['user', 'create', '--from', '-', '-o', 'xlsx'], { stdin: '{}' });
    expect(bulk.exitCode).toBe(2);
    expect(bulk.stderr).toContain('cannot write a spreadsheet');
  });
});

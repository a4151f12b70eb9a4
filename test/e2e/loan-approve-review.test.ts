/**
 * `loan schedule ID` prints the schedule of an approved loan from its stored terms.
 * `loan approve` shows what it is about to commit to, and warns, before anything is sent — in-process
 * against the sandbox (the second question on a real terminal is in confirm-pty.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoanRequest } from '../../src/contract/schemas.js';
import { approvalFlags, borrower } from '../helpers/cli.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';

let sandbox: CliSandbox;
const email = 'review@example.com';
const NOW = new Date('2026-03-02T09:30:00Z');
/** The laptop's clock, years off: "today" is the server's (its Date header), so this must not matter. */
const LAPTOP = () => new Date('2031-07-15T00:00:00Z');

async function newLoan(submitted: boolean, amount = '50000'): Promise<string> {
  const created = await sandbox.run(['loan', 'create', '--user', email, '--amount', amount, '--purpose', 'Stock']);
  expect(created.exitCode, created.stderr).toBe(0);
  const id = String(created.json<LoanRequest>().id);
  if (submitted) {
    expect((await sandbox.run(['loan', 'add-bank', id, '--code', '011', '--account-name', 'Ada Obi'])).exitCode).toBe(
      0,
    );
    expect((await sandbox.run(['loan', 'submit', id])).exitCode).toBe(0);
  }
  return id;
}

const approve = (id: string, rate: string, ...more: string[]) =>
  sandbox.run(['loan', 'approve', id, ...approvalFlags({ '--rate': rate }), ...more], { now: LAPTOP });

beforeAll(async () => {
  sandbox = await cliSandbox();
  sandbox.setNow(NOW);
  const user = await sandbox.run(['user', 'create', ...borrower(email), '--password-stdin'], { stdin: 'pw' });
  expect(user.exitCode, user.stderr).toBe(0);
});

afterAll(async () => {
  await sandbox?.close();
});

describe('loan approve shows the approval before sending it', () => {
  it('borrower, requested vs approved, the rate with its unit, totals, instalments and due dates', async () => {
    const id = await newLoan(true);
    const result = await approve(id, '5', '--yes');
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain(`Approve loan request ${id} of Ada Obi`);
    expect(result.stderr).toContain('requested 50,000.00, approved 45,000.00');
    expect(result.stderr).toContain('5 % per month (simple interest), 60 % a year (the yearly rate ÷ 12 a month');
    expect(result.stderr).toContain('interest     13,500.00 in total');
    expect(result.stderr).toContain('repayment    58,500.00 in total');
    expect(result.stderr).toContain('6 (monthly), first due 2026-04-02, last due 2026-09-02');
    expect(result.stderr).not.toContain('warning:');
    // What was shown is what the sandbox stored.
    expect(result.json<LoanRequest>().terms.estimated_repayment).toBe(58500);
  });

  it('--yes answers the question, not the warnings: never submitted and interest above the principal need their flags', async () => {
    const id = await newLoan(false);
    const refused = await approve(id, '20', '--yes');
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`warning: loan request ${id} was never submitted by the borrower.`);
    expect(refused.stderr).toContain('warning: the interest (54,000.00) is more than the principal (45,000.00).');
    const errorLines = refused.stderr.split('\n').filter((line) => line.startsWith('loanctl:'));
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]).toContain('Pass --allow-unsubmitted --allow-high-interest with --yes to approve anyway');
    expect(
      (await sandbox.run(['loan', 'show', id])).json<{ loan_request: LoanRequest }>().loan_request.lender_status,
    ).toBe('saved');
    // One flag accepts one warning: the other still stops it.
    const half = await approve(id, '20', '--yes', '--allow-unsubmitted');
    expect(half.exitCode).toBe(2);
    expect(half.stderr).toMatch(/loanctl: Not approved: the interest .* Pass --allow-high-interest with --yes/);
    const accepted = await approve(id, '20', '--yes', '--allow-unsubmitted', '--allow-high-interest');
    expect(accepted.exitCode, accepted.stderr).toBe(0);
    expect(accepted.json<LoanRequest>().lender_status).toBe('approved');
  });

  it('an approved amount above the request is refused before anything is asked or sent (the API refuses it)', async () => {
    const id = await newLoan(true);
    const flags = approvalFlags({ '--approved-amount': '999999', '--rate': '2' });
    const result = await sandbox.run(['loan', 'approve', id, ...flags, '--yes', '--debug']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('refused: the approved amount (999,999.00) is more than the 50,000.00 requested');
    expect(result.stderr).not.toContain('POST ');
    expect(result.stderr).toContain('Pass --approved-amount at most 50000.');
  });

  it('--annual-rate is sent as the rate per tenure unit (÷ 12 a month); the review shows both', async () => {
    const id = await newLoan(true);
    const flags = approvalFlags({ '--rate': undefined, '--annual-rate': '24' });
    const result = await sandbox.run(['loan', 'approve', id, ...flags, '--yes']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain('2 % per month (simple interest), 24 % a year');
    expect(result.json<LoanRequest>().terms.rate).toBe(2);
    const shown = await sandbox.run(['loan', 'show', id, '-o', 'table']);
    expect(shown.stdout).toMatch(/Rate\s+2 % per month/);

    const both = await approve(id, '2', '--annual-rate', '24', '--yes', '--reapprove');
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('--rate and --annual-rate cannot be used together.');
  });

  it.each([
    ['30', 'weeks', '30 % a year'],
    ['18.5', 'months', '18.5 % a year'],
    ['29.75', 'days', '29.75 % a year'],
  ])('--annual-rate %s over %s comes back as typed, with no floating-point noise', async (annual, unit, shown) => {
    const id = await newLoan(true);
    const flags = approvalFlags({
      '--rate': undefined,
      '--annual-rate': annual,
      '--tenured-in': unit,
      '--tenure': '12',
    });
    const result = await sandbox.run(['loan', 'approve', id, ...flags, '--yes']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain(`, ${shown} (`);
    expect(result.stderr).not.toMatch(/\d\.\d*(9999|0000)\d* %/);
  });

  it('re-approving an approved loan with --yes needs --reapprove: exit 2, one line, the old terms kept', async () => {
    const id = await newLoan(true);
    expect((await approve(id, '5', '--yes')).exitCode).toBe(0);
    const refused = await approve(id, '3', '--yes');
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`warning: loan request ${id} is already approved for 45,000.00`);
    const errorLines = refused.stderr.split('\n').filter((line) => line.startsWith('loanctl:'));
    expect(errorLines).toEqual([
      `loanctl: Not approved: loan request ${id} is already approved for 45,000.00: these terms replace the old ones. Pass --reapprove with --yes to approve anyway (nothing was sent).`,
    ]);
    const shown = await sandbox.run(['loan', 'show', id]);
    expect(shown.json<{ loan_request: LoanRequest }>().loan_request.terms.rate).toBe(5);

    const replaced = await approve(id, '3', '--yes', '--reapprove');
    expect(replaced.exitCode, replaced.stderr).toBe(0);
    expect(replaced.json<LoanRequest>().terms.rate).toBe(3);
  });

  it('off a terminal without --yes nothing is read or sent: exit 2 naming --yes', async () => {
    const id = await newLoan(true);
    const result = await approve(id, '5', '--debug');
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--yes');
    expect(result.stderr).not.toContain('GET ');
  });

  it('a fixed-amount rate is shown as money for the whole loan', async () => {
    const id = await newLoan(true);
    const terms = { '--rate': '7500', '--tenure': '30', '--tenured-in': 'days', '--rate-type': 'fixed-amount' };
    const flags = approvalFlags({ ...terms, '--frequency': 'weekly' });
    const result = await sandbox.run(['loan', 'approve', id, ...flags, '--yes'], { now: LAPTOP });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain('7,500.00 fixed for the whole loan');
    expect(result.stderr).toContain('4 (weekly), first due 2026-03-09, last due 2026-04-01');
  });
});

describe('loan schedule ID: the schedule of an approved loan from its stored terms', () => {
  it('finds the frequency whose schedule repays the estimated repayment: weekly over 12 weeks, 72,652.69', async () => {
    const id = await newLoan(true, '70000');
    const flags = approvalFlags({
      '--approved-amount': '70000',
      '--rate': undefined,
      '--annual-rate': '30',
      '--tenure': '12',
      '--tenured-in': 'weeks',
      '--rate-type': 'compound-interest',
      '--frequency': 'weekly',
    });
    const approved = await sandbox.run(['loan', 'approve', id, ...flags, '--yes'], { now: LAPTOP });
    expect(approved.exitCode, approved.stderr).toBe(0);
    expect(approved.json<LoanRequest>().terms.estimated_repayment).toBe(72652.69);
    // --quiet hides notices: the schedule itself must be the loan's.
    const shown = await sandbox.run(['loan', 'schedule', id, '-o', 'json', '--quiet']);
    expect(shown.exitCode, shown.stderr).toBe(0);
    const schedule = shown.json<{ instalments: { due_date: string }[]; total_repayment: number }>();
    expect(schedule.total_repayment).toBe(72652.69);
    expect(schedule.instalments).toHaveLength(12);
    expect(schedule.instalments[0]?.due_date).toBe('2026-03-09');
    // Asked for another frequency, it is the operator's: 2 monthly instalments.
    const monthly = await sandbox.run(['loan', 'schedule', id, '--frequency', 'monthly', '-o', 'json']);
    expect(monthly.json<{ instalments: unknown[] }>().instalments).toHaveLength(2);
  });

  it('refuses without --frequency when several frequencies repay the same (simple interest), and says why', async () => {
    const id = await newLoan(true);
    expect((await approve(id, '5', '--yes')).exitCode).toBe(0);
    const refused = await sandbox.run(['loan', 'schedule', id, '-o', 'json']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      `Loan request ${id} repays 58,500.00 whether it is repaid daily, weekly, bi-weekly, monthly, and the API stores no frequency`,
    );
    expect(refused.stderr).toContain('--frequency daily|weekly|bi-weekly|monthly');
    const monthly = await sandbox.run(['loan', 'schedule', id, '--frequency', 'monthly', '-o', 'json']);
    expect(monthly.exitCode, monthly.stderr).toBe(0);
    const schedule = monthly.json<{ instalments: { due_date: string }[]; total_repayment: number }>();
    expect(schedule.total_repayment).toBe(58500);
    expect(schedule.instalments.map((row) => row.due_date)).toEqual([
      '2026-04-02',
      '2026-05-02',
      '2026-06-02',
      '2026-07-02',
      '2026-08-02',
      '2026-09-02',
    ]);
    const weekly = await sandbox.run(['loan', 'schedule', id, '--frequency', 'weekly', '-o', 'json']);
    expect(weekly.exitCode, weekly.stderr).toBe(0);
    expect(weekly.json<{ instalments: unknown[] }>().instalments.length).toBe(26);
  });

  it('a loan that is not approved, or terms flags beside an ID, are exit 2', async () => {
    const id = await newLoan(true);
    const notApproved = await sandbox.run(['loan', 'schedule', id]);
    expect(notApproved.exitCode).toBe(2);
    expect(notApproved.stderr).toContain(`Loan request ${id} is not approved, so it has no terms to schedule.`);
    const mixed = await sandbox.run(['loan', 'schedule', id, '--rate', '5', '--debug']);
    expect(mixed.exitCode).toBe(2);
    expect(mixed.stderr).toContain('leave out --rate');
    expect(mixed.stderr).not.toContain('GET ');
  });
});

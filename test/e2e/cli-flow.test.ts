/**
 * The whole flow, end to end, through `runCli` (the real program, in-process) against the in-process
 * sandbox: create a borrower, a loan request by e-mail, bank details, employment, a guarantor,
 * submit, approve, show — once as a script would (JSON on stdout, parsed), once as a person would
 * (`-o table`, asserting what they see).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoanRequest } from '../../src/contract/schemas.js';
import { borrower } from '../helpers/cli.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';

let sandbox: CliSandbox;

beforeAll(async () => {
  sandbox = await cliSandbox();
});

afterAll(async () => {
  await sandbox?.close();
});

const bankFlags = [
  '--code',
  '058',
  '--account-name',
  'Ada Obi',
  '--account-number',
  '0123456789',
  '--bank-name',
  'GTBank',
];
const employmentFlags = [
  '--status',
  'employed',
  '--company-name',
  'Acme Stores',
  '--company-address',
  '1 Marina, Lagos',
  '--position',
  'Cashier',
  '--salary',
  '150,000',
  '--manager',
  'Bola Ade',
  '--manager-phone',
  '08098765432',
  '--manager-email',
  'bola@acme.ng',
];
const guarantorFlags = [
  '--firstname',
  'Chi',
  '--lastname',
  'Eze',
  '--gender',
  'male',
  '--relationship',
  'brother',
  '--email',
  'chi@example.com',
  '--phone',
  '2348055555555',
];
const approveFlags = [
  '--approved-amount',
  '45000',
  '--rate',
  '5',
  '--tenure',
  '6',
  '--tenured-in',
  'months',
  '--rate-type',
  'simple-interest',
  '--frequency',
  'weekly',
  '--note',
  'Good history',
  '--yes',
];

describe('the whole flow as a script (JSON on stdout)', () => {
  it('creates, fills, submits, approves and shows a loan request', async () => {
    const email = 'ada.json@example.com';
    const created = await sandbox.run(['user', 'create', ...borrower(email), '--password-stdin'], {
      stdin: 's3cret\n',
    });
    expect(created.exitCode, created.stderr).toBe(0);
    const user = created.json<Record<string, unknown>>();
    expect(user).toMatchObject({ email, phone: '+2348012345678', status: 'created', source: 'api' });
    expect(user).not.toHaveProperty('password');
    expect(created.stderr).toContain(`next: loanctl loan create --user ${email}`);

    const exists = await sandbox.run(['user', 'exists', '--email', email]);
    expect([exists.exitCode, exists.json()]).toEqual([0, true]);

    const loanRun = await sandbox.run([
      'loan',
      'create',
      '--user',
      email,
      '--amount',
      '50000',
      '--purpose',
      'Shop stock',
    ]);
    expect(loanRun.exitCode, loanRun.stderr).toBe(0);
    const loan = loanRun.json<LoanRequest>();
    expect(loan).toMatchObject({ amount: 50000, purpose: 'Shop stock', status: 'saved', lender_status: 'saved' });
    expect(loanRun.stderr).toMatch(new RegExp(`${email} is user \\d+`));
    const id = String(loan.id);

    const bank = await sandbox.run(['loan', 'add-bank', id, ...bankFlags]);
    expect(bank.exitCode, bank.stderr).toBe(0);
    // add-bank's payload is data1: the loan request.
    expect(bank.json<LoanRequest>()).toMatchObject({ id: loan.id });

    const employment = await sandbox.run(['loan', 'add-employment', id, ...employmentFlags]);
    expect(employment.exitCode, employment.stderr).toBe(0);
    expect(employment.json()).toMatchObject({
      salary: 150000,
      manager_phone: '+2348098765432',
      company_name: 'Acme Stores',
    });

    const guarantor = await sandbox.run(['loan', 'add-guarantor', id, ...guarantorFlags]);
    expect(guarantor.exitCode, guarantor.stderr).toBe(0);
    expect(guarantor.json<unknown[]>()[0]).toMatchObject({ firstname: 'Chi', phone: '+2348055555555' });

    const submitted = await sandbox.run(['loan', 'submit', id]);
    expect(submitted.exitCode, submitted.stderr).toBe(0);
    const afterSubmit = submitted.json<LoanRequest>();
    expect(afterSubmit).toMatchObject({ id: loan.id, status: 'pending', user_status: 'submitted' });
    expect(afterSubmit.submitted_at).not.toBe('0001-01-01T00:00:00Z');

    const approved = await sandbox.run(['loan', 'approve', id, ...approveFlags]);
    expect(approved.exitCode, approved.stderr).toBe(0);
    expect(approved.json<LoanRequest>()).toMatchObject({
      lender_status: 'approved',
      terms: { approved_amount: 45000, rate: 5, tenure: 6, tenured_in: 'months', rate_type: 'simple-interest' },
    });

    const shown = await sandbox.run(['loan', 'show', id]);
    expect(shown.exitCode, shown.stderr).toBe(0);
    const view = shown.json<{
      loan_request: LoanRequest;
      progress: string;
      bank_details: unknown[];
      guarantors: unknown[];
      employment: Record<string, unknown>;
    }>();
    expect(view.loan_request).toMatchObject({ id: loan.id, lender_status: 'approved', user_status: 'submitted' });
    expect(typeof view.progress).toBe('string');
    expect(view.bank_details).toHaveLength(1);
    expect(view.bank_details[0]).toMatchObject({ code: '058', account_name: 'Ada Obi' });
    expect(view.guarantors).toHaveLength(1);
    expect(view.employment).toMatchObject({ position: 'Cashier' });

    const picked = await sandbox.run(['loan', 'show', id, '--fields', 'loan_request.lender_status,progress']);
    expect(picked.json()).toEqual({ loan_request: { lender_status: 'approved' }, progress: view.progress });
  });
});

describe('the whole flow as a person (-o table)', () => {
  it('shows readable tables with money separators and — for unset dates', async () => {
    const email = 'ada.table@example.com';
    const table = ['-o', 'table'];
    const created = await sandbox.run(
      ['user', 'create', ...borrower(email, '+234 801 234 5678'), '--password-stdin', ...table],
      {
        stdin: 'pw',
      },
    );
    expect(created.exitCode, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^Email\s+ada\.table@example\.com$/m);
    expect(created.stdout).toMatch(/^Phone\s+\+2348012345678$/m);
    expect(created.stderr).toContain(`Created user ${email}.`);

    const loanRun = await sandbox.run([
      'loan',
      'create',
      '--user',
      email,
      '--amount',
      '1250000.5',
      '--purpose',
      'Freezer',
      ...table,
    ]);
    expect(loanRun.exitCode, loanRun.stderr).toBe(0);
    expect(loanRun.stdout).toMatch(/^Amount\s+1,250,000\.50$/m);
    expect(loanRun.stdout).toMatch(/^Submitted\s+—$/m);
    const id = /^ID\s+(\d+)$/m.exec(loanRun.stdout)?.[1];
    expect(id).toBeDefined();
    const loanId = id as string;

    const bank = await sandbox.run(['loan', 'add-bank', loanId, ...bankFlags, ...table]);
    expect(bank.exitCode, bank.stderr).toBe(0);
    expect(bank.stderr).toContain(`Added bank details to loan request ${loanId}.`);

    const banks = await sandbox.run(['loan', 'banks', loanId, ...table]);
    expect(banks.stdout).toMatch(/^ID\s+BANK\s+CODE\s+ACCOUNT NAME\s+ACCOUNT NUMBER\s+ADDED$/m);
    expect(banks.stdout).toMatch(/GTBank\s+058\s+Ada Obi\s+0123456789/);

    expect((await sandbox.run(['loan', 'add-employment', loanId, ...employmentFlags, ...table])).stdout).toMatch(
      /^Salary\s+150,000\.00$/m,
    );
    const guarantor = await sandbox.run(['loan', 'add-guarantor', loanId, ...guarantorFlags, ...table]);
    expect(guarantor.stdout).toMatch(/Chi\s+Eze\s+brother\s+chi@example\.com\s+\+2348055555555/);

    const submitted = await sandbox.run(['loan', 'submit', loanId, ...table]);
    expect(submitted.stdout).toMatch(/^Status\s+pending$/m);
    expect(submitted.stderr).toContain(`next: loanctl loan approve ${loanId}`);

    const approved = await sandbox.run(['loan', 'approve', loanId, ...approveFlags, ...table]);
    expect(approved.exitCode, approved.stderr).toBe(0);
    expect(approved.stdout).toMatch(/^Lender status\s+approved$/m);
    expect(approved.stdout).toMatch(/^Approved amount\s+45,000\.00$/m);
    expect(approved.stderr).toContain('repaid weekly');

    const shown = await sandbox.run(['loan', 'show', loanId, ...table]);
    expect(shown.exitCode, shown.stderr).toBe(0);
    const out = shown.stdout;
    expect(out).toMatch(new RegExp(`^Loan request ${loanId}$`, 'm'));
    expect(out).toMatch(/^Borrower\s+Ada Obi$/m);
    expect(out).toMatch(/^Amount\s+1,250,000\.50$/m);
    expect(out).toMatch(/^Lender status\s+approved$/m);
    expect(out).toMatch(/^Bank details \(1\)$/m);
    expect(out).toMatch(/^Guarantors \(1\)$/m);
    expect(out).toMatch(/^Employment$/m);
    expect(out).toMatch(/^Company\s+Acme Stores$/m);
    expect(out).not.toContain('0001-01-01');
    // No colour codes: NO_COLOR is set and stdout is not a terminal.
    expect(out).not.toContain('\u001b[');

    const list = await sandbox.run(['loan', 'list', ...table]);
    expect(list.stdout).toMatch(/^ID\s+BORROWER\s+AMOUNT\s+PURPOSE\s+STATUS\s+LENDER STATUS\s+SUBMITTED\s+APPROVED$/m);
    expect(list.stdout).toMatch(
      new RegExp(`^${loanId}\\s+Ada Obi\\s+1,250,000\\.50\\s+Freezer\\s+pending\\s+approved`, 'm'),
    );
  });
});

/**
 * An operator's morning, in-process against the sandbox: `loan list` with filters (client-side,
 * streamed, stopping at --limit matches, saying how much was scanned) and `loan queue`, the
 * approval inbox. The sandbox's clock is set before each step, so dates are known.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoanRequest } from '../../src/contract/schemas.js';
import { borrower } from '../helpers/cli.js';
import { type CliSandbox, cliSandbox, type RunCliOptions } from '../helpers/run-cli.js';

let sandbox: CliSandbox;
const ada = 'ada.filters@example.com';
const bola = 'bola.filters@example.com';
/** Loan ids by name, in the order they were created. */
const loans: Record<string, number> = {};

async function ok(argv: string[], options: RunCliOptions = {}) {
  const result = await sandbox.run(argv, options);
  expect(result.exitCode, `${argv.join(' ')}\n${result.stderr}`).toBe(0);
  return result;
}

async function createLoan(name: string, email: string, amount: string, day: string): Promise<void> {
  sandbox.setNow(new Date(`${day}T10:00:00Z`));
  const created = await ok(['loan', 'create', '--user', email, '--amount', amount, '--purpose', name]);
  loans[name] = created.json<LoanRequest>().id;
}

async function submit(name: string, day: string): Promise<void> {
  sandbox.setNow(new Date(`${day}T11:00:00Z`));
  const id = String(loans[name]);
  await ok(['loan', 'add-bank', id, '--code', '011', '--account-name', 'Ada Obi']);
  await ok(['loan', 'submit', id]);
}

beforeAll(async () => {
  sandbox = await cliSandbox();
  await ok(['user', 'create', ...borrower(ada), '--password-stdin'], { stdin: 'pw' });
  await ok(['user', 'create', ...borrower(bola, '08022222222'), '--password-stdin'], { stdin: 'pw' });
  await createLoan('early', ada, '10000', '2026-01-05');
  await createLoan('middle', bola, '250000', '2026-02-10');
  await createLoan('late', ada, '75000.50', '2026-03-01');
  await createLoan('latest', bola, '5000', '2026-03-02');
  // Submitted out of creation order: "late" has waited longest.
  await submit('late', '2026-03-01');
  await submit('middle', '2026-03-03');
  await submit('early', '2026-03-04');
  sandbox.setNow(new Date('2026-03-05T09:00:00Z'));
  await ok([
    'loan',
    'approve',
    String(loans.early),
    '--approved-amount',
    '10000',
    '--rate',
    '5',
    '--tenure',
    '2',
    '--tenured-in',
    'months',
    '--rate-type',
    'simple',
    '--frequency',
    'monthly',
    '--yes',
  ]);
  sandbox.setNow(new Date('2026-03-06T12:00:00Z'));
});

afterAll(async () => {
  await sandbox?.close();
});

const ids = (result: { json<T>(): T }) => result.json<LoanRequest[]>().map((loan) => loan.id);

describe('loan list filters (client-side)', () => {
  it('--stage lists the loan requests in a stage of the state table, whatever marks it; a stage it does not know is exit 2', async () => {
    expect(ids(await ok(['loan', 'list', '--stage', 'created']))).toEqual([loans.latest]);
    expect(ids(await ok(['loan', 'list', '--stage', 'waiting']))).toEqual([loans.late, loans.middle]);
    // Submitted and then approved: in the later stage only.
    expect(ids(await ok(['loan', 'list', '--stage', 'APPROVED']))).toEqual([loans.early]);
    expect(ids(await ok(['loan', 'list', '--stage', 'submitted', '--user', ada]))).toEqual([loans.late]);
    const unknown = await sandbox.run(['loan', 'list', '--stage', 'paid']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('--stage: "paid" is not a stage of a loan request.');
    expect(unknown.stderr).toContain('created, waiting, submitted, approved');
  });

  it('loan find --stage: the match only in that stage, else exit 4 saying where it stands', async () => {
    const [early] = await sandbox.run(['loan', 'list', '--stage', 'approved']).then((r) => r.json<LoanRequest[]>());
    const reference = String(early?.reference);
    expect((await ok(['loan', 'find', '--reference', reference, '--stage', 'approved'])).json<LoanRequest>().id).toBe(
      loans.early,
    );
    const elsewhere = await sandbox.run(['loan', 'find', '--reference', reference, '--stage', 'waiting']);
    expect(elsewhere.exitCode).toBe(4);
    expect(elsewhere.stderr).toContain(`is approved, not waiting for approval.`);
  });

  it('--user takes an e-mail and lists only that borrower, saying how many rows were scanned', async () => {
    const result = await ok(['loan', 'list', '--user', ada]);
    expect(ids(result)).toEqual([loans.late, loans.early]);
    expect(result.stderr).toContain('2 matched of 4 loan requests scanned');
  });

  it('filters combine: states, amounts and date windows', async () => {
    const submitted = await ok(['loan', 'list', '--user-status', 'SUBMITTED', '--lender-status', 'saved']);
    expect(ids(submitted)).toEqual([loans.late, loans.middle]);
    const amounts = await ok(['loan', 'list', '--min-amount', '10000', '--max-amount', '75000.50']);
    expect(ids(amounts)).toEqual([loans.late, loans.early]);
    const created = await ok(['loan', 'list', '--created-since', '2026-02-10', '--created-until', '2026-03-01']);
    expect(ids(created)).toEqual([loans.late, loans.middle]);
    const submittedSince = await ok(['loan', 'list', '--submitted-since', '2026-03-03', '--user', ada]);
    expect(ids(submittedSince)).toEqual([loans.early]);
    const approved = await ok(['loan', 'list', '--approved-until', '2026-03-05']);
    expect(ids(approved)).toEqual([loans.early]);
  });

  it('stops as soon as --limit matches are found and says how to go on, keeping the filters', async () => {
    const first = await ok(['loan', 'list', '--min-amount', '5000', '--limit', '1']);
    expect(ids(first)).toEqual([loans.latest]);
    expect(first.stderr).toContain('1 matched of 1 loan requests scanned');
    expect(first.stderr).toContain(`next: --cursor ${loans.latest} --limit 1 --min-amount 5000`);
    const next = await ok(['loan', 'list', '--min-amount', '5000', '--limit', '1', '--cursor', String(loans.latest)]);
    expect(ids(next)).toEqual([loans.late]);
  });

  it('--all streams every match as NDJSON', async () => {
    const result = await ok(['loan', 'list', '--user', bola, '--all', '-o', 'ndjson', '--fields', 'id,amount']);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { id: loans.latest, amount: 5000 },
      { id: loans.middle, amount: 250000 },
    ]);
  });

  it('bad filter values are exit 2 before anything is sent', async () => {
    for (const argv of [
      ['--min-amount', '12.345'],
      ['--created-since', '2026-02-30'],
      ['--min-amount', '9', '--max-amount', '5'],
      ['--user', 'nobody'],
    ]) {
      const result = await sandbox.run(['loan', 'list', ...argv, '--debug']);
      expect(result.exitCode, argv.join(' ')).toBe(2);
      expect(result.stderr, argv.join(' ')).not.toContain('GET ');
    }
  });

  it('--help says the filtering is done by loanctl', async () => {
    const help = await ok(['loan', 'list', '--help']);
    expect(help.stdout).toContain('client-side');
    expect(help.stdout).toContain('--submitted-since');
  });
});

describe('loan queue (the approval inbox)', () => {
  it('lists submitted, unapproved requests by how long they have waited, with age, borrower and amount', async () => {
    // Ages come from the server's clock (its Date header), not the laptop's, which is years off here.
    sandbox.setNow(new Date('2026-03-06T12:00:00Z'));
    const result = await ok(['loan', 'queue'], { now: () => new Date('2031-01-01T00:00:00Z') });
    const rows = result.json<{ id: number; age: string; borrower: string; amount: number; submitted_at: string }[]>();
    // "late" was created after "middle" but submitted before it; "early" is approved; "latest" never submitted.
    expect(rows.map((row) => row.id)).toEqual([loans.late, loans.middle]);
    expect(rows[0]).toMatchObject({ age: '5 d 1 h', borrower: 'Ada Obi', amount: 75000.5 });
    expect(rows[1]).toMatchObject({ age: '3 d 1 h', amount: 250000 });
    expect(result.stderr).toContain(
      '2 waiting for approval (2 shown, oldest submission first) of 4 loan requests scanned',
    );
  });

  it('a table shows money as loan list does: two decimals and separators', async () => {
    const result = await ok(['loan', 'queue', '-o', 'table']);
    const late = result.stdout.split('\n').find((line) => line.startsWith(String(loans.late)));
    expect(late).toContain('75,000.50');
    expect(result.stdout).toContain('250,000.00');
    expect(result.stdout).toMatch(/^ID\s+SUBMITTED\s+WAITING/);
  });

  it('--limit keeps only the oldest', async () => {
    const result = await ok(['loan', 'queue', '--limit', '1', '-o', 'csv']);
    expect(result.stdout.split('\n')[0]).toBe('id,submitted_at,age,user_id,borrower,amount,purpose');
    expect(result.stdout.trim().split('\n')).toHaveLength(2);
    expect(result.stdout).toContain(`${loans.late},`);
  });
});

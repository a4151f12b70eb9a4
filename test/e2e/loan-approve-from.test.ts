/**
 * `loan approve --from FILE` through the real program (in-process) against the in-process
 * sandbox: each row reviewed as `loan approve ID` reviews it, what the API would refuse refused
 * before sending, a warning accepted only by its own flag, `--dry-run` sending nothing and
 * printing every row's review, `--failed` keeping the rows that did not go, and a re-run that
 * approves nothing twice.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoanRequest } from '../../src/contract/schemas.js';
import { approvalFlags, borrower } from '../helpers/cli.js';
import { countingProxy } from '../helpers/counting-proxy.js';
import { type CliSandbox, cliSandbox, seedLoanRequest } from '../helpers/run-cli.js';

let sandbox: CliSandbox;
const dir = mkdtempSync(join(tmpdir(), 'loanctl-approve-from-'));
const email = 'approvals@example.com';

interface Result {
  row: number;
  status: 'success' | 'exists' | 'error';
  id?: number;
  reference?: string;
  message: string;
}

const results = (stdout: string): Result[] =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Result);

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const newLoan = (submitted: boolean) => seedLoanRequest(sandbox, email, '50000', submitted);

async function stateOf(id: number): Promise<LoanRequest> {
  const shown = await sandbox.run(['loan', 'show', String(id)]);
  return shown.json<{ loan_request: LoanRequest }>().loan_request;
}

/** A spreadsheet's header as operators write it: synonyms and spaces, `Annual Rate` instead of a rate per unit. */
const HEADER = 'Loan ID,Approved Amount,Annual Rate,Tenure,Tenure Unit,Rate Type,Repayment Frequency,Notes';
const row = (loan: string | number, amount: number, annual = 24) =>
  `${loan},${amount},${annual},6,months,simple-interest,monthly,From the file`;

beforeAll(async () => {
  sandbox = await cliSandbox();
  const user = await sandbox.run(['user', 'create', ...borrower(email), '--password-stdin'], { stdin: 'pw' });
  expect(user.exitCode, user.stderr).toBe(0);
});

afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('loan approve --from', () => {
  it('approves the good rows, refuses before sending what the API would refuse and a warning without its flag, and a re-run approves nothing twice', async () => {
    const good = await newLoan(true);
    const byReference = await newLoan(true);
    const tooMuch = await newLoan(true);
    const unsubmitted = await newLoan(false);
    const path = file(
      'approvals.csv',
      [
        HEADER,
        row(good.id, 45000),
        row(byReference.reference, 40000),
        row(tooMuch.id, 60000),
        row(unsubmitted.id, 30000),
      ].join('\n'),
    );
    const failed = join(dir, 'failed.csv');
    const first = await sandbox.run(['loan', 'approve', '--from', path, '--yes', '--failed', failed]);
    expect(first.exitCode, first.stderr).toBe(1);
    const lines = results(first.stdout);
    expect(lines.map((line) => line.status)).toEqual(['success', 'success', 'error', 'error']);
    expect(lines[1]?.id).toBe(byReference.id);
    expect(lines[2]?.message).toContain('is more than the 50,000.00 requested: the API refuses it');
    expect(lines[3]?.message).toContain('was never submitted by the borrower. Pass --allow-unsubmitted');

    // What was sent is what the sandbox holds: the yearly 24 % as 2 % a month; the refused rows untouched.
    const approved = await stateOf(good.id);
    expect(approved.lender_status).toBe('approved');
    expect(approved.terms?.rate).toBe(2);
    expect(approved.terms?.approved_amount).toBe(45000);
    expect((await stateOf(byReference.id)).terms?.approved_amount).toBe(40000);
    expect((await stateOf(tooMuch.id)).lender_status).not.toBe('approved');
    expect((await stateOf(unsubmitted.id)).lender_status).not.toBe('approved');

    // --failed holds the two refused rows, as read, under the file's own header.
    expect(readFileSync(failed, 'utf8').trim().split(/\r?\n/)).toEqual([
      HEADER,
      row(tooMuch.id, 60000),
      row(unsubmitted.id, 30000),
    ]);

    // The same file again: the two approved rows are done (nothing sent), the refused still refused.
    const approvedAtBefore = approved.approved_at;
    const again = await sandbox.run(['loan', 'approve', '--from', path, '--yes']);
    expect(again.exitCode, again.stderr).toBe(1);
    expect(results(again.stdout).map((line) => line.status)).toEqual(['exists', 'exists', 'error', 'error']);
    expect((await stateOf(good.id)).approved_at).toBe(approvedAtBefore);

    // The rows that did not go, fixed by accepting the warning: only the unsubmitted one is approved now.
    const retry = await sandbox.run(['loan', 'approve', '--from', failed, '--yes', '--allow-unsubmitted']);
    expect(results(retry.stdout).map((line) => line.status)).toEqual(['error', 'success']);
    expect((await stateOf(unsubmitted.id)).lender_status).toBe('approved');
  });

  it('a row sent without an answer is checked on the server next time: applied meanwhile, it is not sent again', async () => {
    const loan = await newLoan(true);
    const path = file('unknown.csv', [HEADER, row(loan.id, 45000)].join('\n'));
    const fault = await sandbox.run([
      'sandbox',
      'faults',
      'add',
      '--data-dir',
      sandbox.dataDir,
      '--path',
      '/api/v1/loan_request/*/action',
      '--method',
      'POST',
      '--status',
      '503',
      '--times',
      '1',
    ]);
    expect(fault.exitCode, fault.stderr).toBe(0);
    const failed = join(dir, 'unknown-failed.csv');
    const lost = await sandbox.run(['loan', 'approve', '--from', path, '--yes', '--failed', failed]);
    expect(lost.exitCode).toBe(1);
    expect(results(lost.stdout)[0]?.message).toMatch(/This approval may or may not have been applied/);
    // Not "rejected": it may have gone, so --failed does not offer it to be sent again.
    expect(readFileSync(failed, 'utf8').trim()).toBe(HEADER);
    // It was applied after all (here: by hand, on the same terms).
    const byHand = await sandbox.run([
      'loan',
      'approve',
      String(loan.id),
      ...approvalFlags({ '--rate': undefined, '--annual-rate': '24' }),
      '--yes',
    ]);
    expect(byHand.exitCode, byHand.stderr).toBe(0);
    const approvedAt = (await stateOf(loan.id)).approved_at;
    const again = await sandbox.run(['loan', 'approve', '--from', path, '--yes']);
    expect(again.exitCode, again.stderr).toBe(0);
    const [line] = results(again.stdout);
    expect(line?.status).toBe('exists');
    expect(line?.message).toContain('already approved on these terms; nothing was sent');
    expect((await stateOf(loan.id)).approved_at).toBe(approvedAt);
  });

  it("a loan named twice in one file is approved once: the second row finds the first one's approval", async () => {
    const loan = await newLoan(true);
    const twice = file(
      'twice.csv',
      [HEADER, row(loan.id, 45000), row(loan.reference, 45000), row(loan.id, 40000)].join('\n'),
    );
    const result = await sandbox.run(['loan', 'approve', '--from', twice, '--yes']);
    const lines = results(result.stdout);
    expect(lines.map((line) => line.status)).toEqual(['success', 'exists', 'error']);
    expect(lines[2]?.message).toContain('is already approved for 45,000.00');
    expect(lines[2]?.message).toContain('Pass --reapprove');
    expect((await stateOf(loan.id)).terms?.approved_amount).toBe(45000);
  });

  it('a file of references costs one walk of the product list, whatever the number of rows', async () => {
    const oldest = [await newLoan(true), await newLoan(true), await newLoan(true), await newLoan(true)];
    // 250 newer loan requests: the four are past the list's second page of 100, newest first.
    const newer = ['user,amount,purpose', ...Array.from({ length: 250 }, () => `${email},5000,Stock`)].join('\n');
    const created = await sandbox.run(['loan', 'create', '--from', file('newer.csv', newer)]);
    expect(created.exitCode, created.stderr).toBe(0);
    const proxy = await countingProxy(sandbox.url);
    try {
      const env = { LOANCTL_BASE_URL: proxy.url };
      // A walk reads the list newest first; a row's own look-up by id reads it oldest first from the id.
      const listReads = () =>
        proxy.seen.filter((line) => line.startsWith('GET /api/v1/loan_request?') && line.includes('direction=DESC'))
          .length;
      const walkTo = async (reference: string) => {
        proxy.seen.length = 0;
        await sandbox.run(['loan', 'find', '--reference', reference, '-o', 'json'], { env });
        return listReads();
      };
      const toTheOldest = await walkTo((oldest[0] as { reference: string }).reference);
      const toTheEnd = await walkTo('LR-NO-SUCH-REFERENCE');
      expect(toTheOldest).toBeGreaterThanOrEqual(3);

      proxy.seen.length = 0;
      const rows = oldest.map((loan, at) => row(at % 2 ? loan.reference.toLowerCase() : loan.reference, 40000));
      const approved = await sandbox.run(
        ['loan', 'approve', '--from', file('refs.csv', [HEADER, ...rows].join('\n')), '--yes'],
        {
          env,
        },
      );
      expect(approved.exitCode, approved.stderr).toBe(0);
      expect(results(approved.stdout).map((line) => line.id)).toEqual(oldest.map((loan) => loan.id));
      expect(listReads()).toBe(toTheOldest);

      // A reference the product does not have: the one walk goes to the list's end, once for both rows.
      proxy.seen.length = 0;
      const unknown = [HEADER, row('LR-NO-SUCH-REFERENCE', 40000), row('lr-no-such-other', 40000)].join('\n');
      const missing = await sandbox.run(['loan', 'approve', '--from', file('unknown.csv', unknown), '--yes'], { env });
      expect(results(missing.stdout).map((line) => line.message)).toEqual([
        expect.stringContaining('No loan request with reference LR-NO-SUCH-REFERENCE'),
        expect.stringContaining('No loan request with reference lr-no-such-other'),
      ]);
      expect(listReads()).toBe(toTheEnd);
    } finally {
      await proxy.close();
    }
  });

  it('--yes alone never accepts a warning, and each flag accepts its own only', async () => {
    const loan = await newLoan(false);
    // 20 % a month over 6 months: the interest is more than the principal, and the borrower never submitted.
    const path = file('warnings.csv', [HEADER, row(loan.id, 45000, 240)].join('\n'));
    const half = await sandbox.run(['loan', 'approve', '--from', path, '--yes', '--allow-unsubmitted']);
    expect(half.exitCode).toBe(1);
    const [refused] = results(half.stdout);
    expect(refused?.message).toContain('Pass --allow-high-interest');
    expect(refused?.message).not.toContain('--allow-unsubmitted');
    expect((await stateOf(loan.id)).lender_status).not.toBe('approved');
    const both = await sandbox.run([
      'loan',
      'approve',
      '--from',
      path,
      '--yes',
      '--allow-unsubmitted',
      '--allow-high-interest',
    ]);
    expect(both.exitCode, both.stderr).toBe(0);
    expect((await stateOf(loan.id)).lender_status).toBe('approved');
  });

  it('--dry-run prints every row review and sends nothing', async () => {
    const loan = await newLoan(true);
    const tooMuch = await newLoan(true);
    const path = file('dry.csv', [HEADER, row(loan.id, 45000), row(tooMuch.id, 90000)].join('\n'));
    const dry = await sandbox.run(['loan', 'approve', '--from', path, '--dry-run']);
    expect(dry.exitCode).toBe(1);
    expect(dry.stderr).toContain(`row 1: Approve loan request ${loan.id} of Ada Obi`);
    expect(dry.stderr).toContain('2 % per month (simple interest), 24 % a year');
    expect(dry.stderr).toContain(`row 2: Approve loan request ${tooMuch.id}`);
    expect(dry.stderr).toContain('refused: the approved amount (90,000.00) is more than the 50,000.00 requested');
    // The one approval that would go is shown as its request, not sent.
    expect(dry.stdout).toContain(`/api/v1/loan_request/${loan.id}/action`);
    expect(dry.stdout).not.toContain(`/api/v1/loan_request/${tooMuch.id}/action`);
    expect((await stateOf(loan.id)).lender_status).not.toBe('approved');
  });

  it('off a terminal without --yes nothing is read or sent (exit 2, naming --yes)', async () => {
    const loan = await newLoan(true);
    const path = file('noyes.csv', [HEADER, row(loan.id, 45000)].join('\n'));
    const result = await sandbox.run(['loan', 'approve', '--from', path]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--yes');
    expect((await stateOf(loan.id)).lender_status).not.toBe('approved');
  });

  it('the single-row flags do not mix with --from (exit 2, naming them)', async () => {
    const path = file('mix.csv', [HEADER, row(1, 45000)].join('\n'));
    const withFlag = await sandbox.run(['loan', 'approve', '--from', path, '--yes', '--approved-amount', '1']);
    expect(withFlag.exitCode).toBe(2);
    expect(withFlag.stderr).toContain('leave out --approved-amount');
    const withId = await sandbox.run(['loan', 'approve', '7', '--from', path, '--yes']);
    expect(withId.exitCode).toBe(2);
    expect(withId.stderr).toContain('leave out the id (7)');
  });
});

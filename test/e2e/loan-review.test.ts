/**
 * `loan review` in-process with the scripted prompter (the prompt boundary) against the
 * in-process sandbox: the queue one loan at a time, approve with terms asked (Enter keeping the
 * last terms used for the product), skip, open, stop, the summary; what the API would refuse is
 * not sent; off a terminal it refuses and points at `approve --from`; a terms file it cannot
 * trust stops it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoanRequest } from '../../src/contract/schemas.js';
import { borrower } from '../helpers/cli.js';
import { type CliSandbox, cliSandbox, seedLoanRequest } from '../helpers/run-cli.js';
import { type Script, scripted } from '../helpers/scripted-prompter.js';

let sandbox: CliSandbox;
const state = mkdtempSync(join(tmpdir(), 'loanctl-review-'));
const email = 'review-queue@example.com';

const submittedLoan = async (amount: string) => (await seedLoanRequest(sandbox, email, amount)).id;

/** The answers to the terms' questions, in the order asked (an empty answer takes the default). */
function terms(amount: string, rest: [string, string, string, string, string] = ['', '', '', '', '']): Script {
  return [
    [/approved amount/, amount],
    [/^rate/, rest[0]],
    [/^tenure/, rest[1]],
    [/tenured in/, rest[2]],
    [/rate type/, rest[3]],
    [/frequency/, rest[4]],
    [/note/, ''],
  ];
}

async function stateOf(id: number): Promise<LoanRequest> {
  return (await sandbox.run(['loan', 'show', String(id)])).json<{ loan_request: LoanRequest }>().loan_request;
}

async function review(script: Script, env: Record<string, string> = {}, flags: string[] = []) {
  const { prompter, remaining } = scripted(script);
  const result = await sandbox.run(['loan', 'review', ...flags], {
    tty: true,
    prompter,
    env: { LOANCTL_STATE_DIR: state, ...env },
  });
  return { ...result, remaining };
}

beforeAll(async () => {
  sandbox = await cliSandbox();
  const user = await sandbox.run(['user', 'create', ...borrower(email), '--password-stdin'], { stdin: 'pw' });
  expect(user.exitCode, user.stderr).toBe(0);
});

afterAll(async () => {
  await sandbox?.close();
  rmSync(state, { recursive: true, force: true });
});

describe('loan review', () => {
  it('one loan at a time: approve with the terms asked, open, skip, stop; the next run defaults to the last terms', async () => {
    const first = await submittedLoan('50000');
    const second = await submittedLoan('30000');
    const third = await submittedLoan('20000');

    const run1 = await review([
      [new RegExp(`Loan request ${first}: what now`), 'approve'],
      ...terms('', ['2', '6', 'months', 'simple-interest', 'monthly']), // '': the amount requested
      [new RegExp(`Approve loan request ${first}:`), true],
      [new RegExp(`Loan request ${second}: what now`), 'open'],
      [new RegExp(`Loan request ${second}: what now`), 'skip'],
      [new RegExp(`Loan request ${third}: what now`), 'stop'],
    ]);
    expect(run1.exitCode, run1.stderr).toBe(0);
    expect(run1.remaining).toEqual([]);
    expect(run1.stderr).toContain(`Loan request ${first} (`);
    expect(run1.stderr).toContain('1 bank account(s), 0 guarantor(s)');
    expect(run1.stderr).toContain('No terms used yet for this product');
    expect(run1.stdout).toContain(`/${second}`); // the dashboard page, where no browser opens
    expect(run1.stdout).toContain(
      `Reviewed: approved 1 (${first}); skipped 1 (${second}); opened 1 (${second}); 1 left waiting.`,
    );
    const approved = await stateOf(first);
    expect(approved.lender_status).toBe('approved');
    expect(approved.terms).toMatchObject({ approved_amount: 50000, rate: 2, tenure: 6, tenured_in: 'months' });
    expect((await stateOf(second)).lender_status).not.toBe('approved');
    expect((await stateOf(third)).lender_status).not.toBe('approved');

    // Enter for every term: the last ones used for the product; the amount is the loan's own.
    // An amount the API would refuse is not sent, and the menu comes back.
    const run2 = await review([
      [new RegExp(`Loan request ${second}: what now`), 'approve'],
      ...terms(''),
      [new RegExp(`Approve loan request ${second}:`), true],
      [new RegExp(`Loan request ${third}: what now`), 'approve'],
      ...terms('999999'),
      [new RegExp(`Loan request ${third}: what now`), 'stop'],
    ]);
    expect(run2.exitCode, run2.stderr).toBe(0);
    expect(run2.remaining).toEqual([]);
    expect(run2.stderr).toContain('With the last terms used for this product');
    expect(run2.stderr).toContain('refused: the approved amount (999,999.00) is more than the 20,000.00 requested');
    expect(run2.stdout).toContain(`Reviewed: approved 1 (${second}); skipped 0; opened 0; 1 left waiting.`);
    expect((await stateOf(second)).terms).toMatchObject({ approved_amount: 30000, rate: 2, tenure: 6 });
    expect((await stateOf(third)).lender_status).not.toBe('approved');
  });

  it('under -o json and ndjson the summary is the one record on stdout: the ids approved, skipped, opened, left', async () => {
    const first = await submittedLoan('40000');
    const second = await submittedLoan('40000');
    const third = await submittedLoan('40000');
    // Earlier tests leave loans waiting: every menu before `first` is skipped.
    const waitingBefore = (await sandbox.run(['loan', 'queue', '-o', 'json']))
      .json<LoanRequest[]>()
      .map((loan) => loan.id)
      .filter((id) => id < first);
    const skipEarlier = waitingBefore.map((id): Script[number] => [new RegExp(`Loan request ${id}: what now`), 'skip']);
    const json = await review(
      [
        ...skipEarlier,
        [new RegExp(`Loan request ${first}: what now`), 'approve'],
        ...terms(''),
        [new RegExp(`Approve loan request ${first}:`), true],
        [new RegExp(`Loan request ${second}: what now`), 'open'],
        [new RegExp(`Loan request ${second}: what now`), 'skip'],
        [new RegExp(`Loan request ${third}: what now`), 'stop'],
      ],
      {},
      ['-o', 'json'],
    );
    expect(json.exitCode, json.stderr).toBe(0);
    expect(json.remaining).toEqual([]);
    // The dashboard page's URL, where no browser opens, is said on stderr: stdout is the record alone.
    expect(json.stderr).toContain(`/dashboard/loans/${second}`);
    expect(JSON.parse(json.stdout)).toEqual({
      approved: [first],
      skipped: [...waitingBefore, second],
      opened: [second],
      left_waiting: [third],
    });

    const ndjson = await review(
      [
        ...[...waitingBefore, second].map((id): Script[number] => [new RegExp(`Loan request ${id}: what now`), 'skip']),
        [new RegExp(`Loan request ${third}: what now`), 'stop'],
      ],
      {},
      ['-o', 'ndjson'],
    );
    expect(ndjson.exitCode, ndjson.stderr).toBe(0);
    expect(
      ndjson.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([{ approved: [], skipped: [...waitingBefore, second], opened: [], left_waiting: [third] }]);
  });

  it('off a terminal, with --no-input or under CI it refuses (exit 2) and points at approve --from', async () => {
    const offTerminal = await sandbox.run(['loan', 'review'], { env: { LOANCTL_STATE_DIR: state } });
    const noInput = await review([], {}, ['--no-input']);
    const ci = await review([], { CI: 'true' });
    for (const result of [offTerminal, noInput, ci]) {
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain('loanctl loan approve --from');
    }
  });

  it('a terms file it cannot trust stops it with one line, before any question', async () => {
    const bad = mkdtempSync(join(tmpdir(), 'loanctl-review-bad-'));
    writeFileSync(join(bad, 'approval-terms.json'), '{"version":1,"products":{"x/1":{"rate":"lots"}}}');
    const result = await review([], { LOANCTL_STATE_DIR: bad });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('cannot be trusted: the terms of x/1 are not approval terms');
    rmSync(bad, { recursive: true, force: true });
  });
});

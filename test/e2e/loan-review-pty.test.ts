/**
 * `loanctl loan review` in a real pseudo-terminal: the built CLI runs in tmux against the
 * in-process sandbox; the test picks from the menu with the arrow keys, answers the terms, and
 * presses Ctrl-C at the next loan: the approval is on the server, the one after untouched, and
 * the summary is on screen with exit 130; under -o json, that summary is a JSON record.
 *
 * Skipped, saying so, where tmux is missing; .ci/run installs it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoanRequest } from '../../src/contract/schemas.js';
import { assertBuilt, borrower, LOANCTL, loanctlPath, ROOT } from '../helpers/cli.js';
import { hasTmux, TmuxPty } from '../helpers/pty.js';
import { type CliSandbox, cliSandbox, seedLoanRequest } from '../helpers/run-cli.js';

const HAS_TMUX = hasTmux();
if (!HAS_TMUX) console.warn('loan-review-pty: tmux is not installed; skipping the pseudo-terminal test.');

describe.skipIf(!HAS_TMUX)('loan review in a real terminal (tmux)', () => {
  let base: string;
  let sandbox: CliSandbox;
  let pty: TmuxPty | undefined;

  beforeAll(async () => {
    assertBuilt();
    base = mkdtempSync(join(tmpdir(), 'loanctl-review-pty-'));
    sandbox = await cliSandbox();
  });

  afterAll(async () => {
    await pty?.killServer();
    await sandbox?.close();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  const submittedLoan = async (email: string) => (await seedLoanRequest(sandbox, email, '40000')).id;

  /** `argv` in a new terminal, against this file's sandbox, with a home and config of its own. */
  function startInTerminal(argv: string[]): Promise<TmuxPty> {
    return TmuxPty.start(argv, {
      env: {
        PATH: loanctlPath(['tmux', 'sh', 'sleep']),
        HOME: join(base, 'home'),
        TZ: 'UTC',
        LOANCTL_CONFIG_DIR: join(base, 'config'),
        LOANCTL_STATE_DIR: join(base, 'state'),
        LOANCTL_BASE_URL: sandbox.url,
        LOANCTL_API_KEY: sandbox.api_key,
        LOANCTL_PRODUCT_ID: String(sandbox.product_id),
      },
      cwd: ROOT,
    });
  }

  /** Moves the menu's cursor down to `choice`, then takes it. */
  async function pick(question: RegExp, choice: string): Promise<void> {
    const terminal = pty as TmuxPty;
    await terminal.waitForPrompt(question);
    for (let moves = 0; moves < 10; moves++) {
      const screen = await terminal.screen();
      if (new RegExp(`^❯ ${choice}`, 'm').test(screen)) {
        await terminal.keys('Enter');
        return;
      }
      await terminal.keys('Down');
      await terminal.waitFor((current) => current !== screen);
    }
    throw new Error(`no "${choice}" in the menu:\n${await terminal.screen()}`);
  }

  it('approves the first loan with the terms typed, then Ctrl-C: the summary and exit 130', async () => {
    const email = 'review-pty@example.com';
    const user = await sandbox.run(['user', 'create', ...borrower(email), '--password-stdin'], { stdin: 'pw' });
    expect(user.exitCode, user.stderr).toBe(0);
    const first = await submittedLoan(email);
    const second = await submittedLoan(email);
    pty = await startInTerminal([...LOANCTL, 'loan', 'review']);
    await pick(new RegExp(`Loan request ${first}: what now`), 'Approve');
    await pty.answer('approved amount', ''); // the amount requested
    await pty.answer('rate', '2');
    await pty.answer('tenure', '6');
    await pty.answer('tenured in', 'months');
    await pty.answer('rate type', 'simple-interest');
    await pty.answer('frequency', 'monthly');
    await pty.answer(/note/, '');
    await pty.answer(new RegExp(`Approve loan request ${first}:`), 'y');
    await pty.waitForPrompt(new RegExp(`Loan request ${second}: what now`));
    await pty.keys('C-c');
    const screen = await pty.waitFor(/Reviewed: approved 1/);
    expect(screen).toContain(`Reviewed: approved 1 (${first}); skipped 0; opened 0; 1 left waiting.`);
    expect(await pty.exitCode()).toBe(130);
    expect(screen).not.toContain(sandbox.api_key);
    const shown = await sandbox.run(['loan', 'show', String(first)]);
    expect(shown.json<{ loan_request: LoanRequest }>().loan_request.terms).toMatchObject({ rate: 2, tenure: 6 });
    const untouched = await sandbox.run(['loan', 'show', String(second)]);
    expect(untouched.json<{ loan_request: LoanRequest }>().loan_request.lender_status).not.toBe('approved');
  });

  it('under -o json, Ctrl-C ends it with the summary as a JSON record and exit 130', async () => {
    await pty?.killServer();
    const waiting = (await sandbox.run(['loan', 'queue', '-o', 'json'])).json<LoanRequest[]>().map((loan) => loan.id);
    const [first, second] = waiting;
    expect(waiting.length, 'the loan the first test left waiting').toBeGreaterThan(0);
    const last = second ?? (await submittedLoan('review-pty@example.com'));
    pty = await startInTerminal([...LOANCTL, 'loan', 'review', '-o', 'json']);
    await pick(new RegExp(`Loan request ${first}: what now`), 'Skip');
    await pty.waitForPrompt(new RegExp(`Loan request ${last}: what now`));
    await pty.keys('C-c');
    const screen = await pty.waitFor(/"left_waiting"[\s\S]*\}/);
    expect(await pty.exitCode()).toBe(130);
    const record = /^\{$[\s\S]*?^\}$/m.exec(screen)?.[0] ?? '';
    expect(JSON.parse(record)).toMatchObject({ approved: [], skipped: [first], opened: [] });
    expect(JSON.parse(record).left_waiting).toContain(last);
    expect(screen).not.toContain('Reviewed:');
  });

  it('-o json with stdout a file: the questions on the terminal, the record in the file', async () => {
    await pty?.killServer();
    const [first, next = await submittedLoan('review-pty@example.com')] = (
      await sandbox.run(['loan', 'queue', '-o', 'json'])
    )
      .json<LoanRequest[]>()
      .map((loan) => loan.id);
    const out = join(base, 'review.json');
    // stdin and stderr stay the terminal; only stdout goes to the file.
    const redirected = ['sh', '-c', 'out=$1; shift; "$@" > "$out"', 'sh', out];
    pty = await startInTerminal([...redirected, ...LOANCTL, 'loan', 'review', '-o', 'json']);
    await pick(new RegExp(`Loan request ${first}: what now`), 'Skip');
    await pick(new RegExp(`Loan request ${next}: what now`), 'Stop');
    expect(await pty.exitCode()).toBe(0);
    const record = JSON.parse(readFileSync(out, 'utf8'));
    expect(record).toMatchObject({ approved: [], skipped: [first], opened: [] });
    expect(record.left_waiting).toContain(next);
    expect(await pty.screen()).not.toContain('left_waiting');
  });
});

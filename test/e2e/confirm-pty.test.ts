/**
 * Confirmations in a real terminal (tmux): declining `loan delete` is exit 130 and deletes
 * nothing; `--no-color` keeps inquirer's prompt free of colour escapes (inquirer colours on its
 * own, so the flag has to reach it before it loads). Skipped, saying so, where tmux is missing.
 * The bin runs in the terminal; the sandbox, and the set-up and checks around it, run in-process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, borrower } from '../helpers/cli.js';
import { hasTmux, TmuxPty } from '../helpers/pty.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';

const HAS_TMUX = hasTmux();
if (!HAS_TMUX) console.warn('confirm-pty: tmux is not installed; skipping the pseudo-terminal tests.');

describe.skipIf(!HAS_TMUX)('confirmations in a real terminal', () => {
  let sandbox: CliSandbox;
  const ptys: TmuxPty[] = [];

  beforeAll(async () => {
    sandbox = await cliSandbox();
  });
  afterAll(async () => {
    for (const pty of ptys) await pty.killServer();
    await sandbox?.close();
  });

  async function newLoanId(email: string): Promise<number> {
    const user = await sandbox.run(['user', 'create', ...borrower(email), '--password-stdin'], { stdin: 'pw' });
    expect(user.exitCode, user.stderr).toBe(0);
    const loan = await sandbox.run(['loan', 'create', '--user', email, '--amount', '50000', '--purpose', 'stock']);
    expect(loan.exitCode, loan.stderr).toBe(0);
    return loan.json<{ id: number }>().id;
  }

  async function inTerminal(args: string[], colourEnv: Record<string, string> = {}): Promise<TmuxPty> {
    const { NO_COLOR: _ignored, ...env } = sandbox.env as Record<string, string>;
    const pty = await TmuxPty.start([process.execPath, BIN, ...args], { env: { ...env, ...colourEnv } });
    ptys.push(pty);
    return pty;
  }

  it('declining loan delete exits 130 and the loan request is still there', async () => {
    const id = await newLoanId('decline@example.com');
    const pty = await inTerminal(['loan', 'delete', String(id)]);
    await pty.waitFor(/\? .*[Dd]elete/);
    await pty.type('n');
    await pty.keys('Enter');
    const screen = await pty.waitFor('[exited');
    expect(screen).toContain('[exited 130]');
    const progress = await sandbox.run(['loan', 'progress', String(id)]);
    expect(progress.exitCode, progress.stderr).toBe(0);
  });

  it('--no-color reaches the prompt: no colour escapes, though the terminal could show them', async () => {
    const id = await newLoanId('nocolour@example.com');
    const coloured = await inTerminal(['loan', 'delete', String(id)], { FORCE_COLOR: '1' });
    await coloured.waitFor(/\? .*[Dd]elete/);
    expect(await coloured.screenWithEscapes()).toContain('\u001b[');
    await coloured.keys('C-c');

    const plain = await inTerminal(['--no-color', 'loan', 'delete', String(id)], { FORCE_COLOR: '1' });
    await plain.waitFor(/\? .*[Dd]elete/);
    expect(await plain.screenWithEscapes()).not.toContain('\u001b[');
    await plain.keys('C-c');
    expect(await plain.waitFor('[exited')).toContain('[exited 130]');
  });

  async function approveInTerminal(id: number, globals: string[] = []): Promise<TmuxPty> {
    const terms = ['--approved-amount', '45000', '--rate', '5', '--tenure', '6', '--tenured-in', 'months'];
    const more = ['--rate-type', 'simple-interest', '--frequency', 'monthly'];
    return inTerminal([...globals, 'loan', 'approve', String(id), ...terms, ...more]);
  }

  it('approving a loan that was never submitted warns and asks again; no to the second question sends nothing', async () => {
    const id = await newLoanId('twice@example.com');
    const pty = await approveInTerminal(id);
    await pty.answer(/Approve loan request/, 'y');
    const screen = await pty.waitForPrompt('Approve anyway, despite the warning above?');
    expect(screen).toContain(`warning: loan request ${id} was never submitted by the borrower.`);
    expect(screen).toContain('5 % per month (simple interest)');
    await pty.type('n');
    await pty.keys('Enter');
    expect(await pty.exitCode()).toBe(130);
    const shown = await sandbox.run(['loan', 'show', String(id)]);
    expect(shown.json<{ loan_request: { lender_status: string } }>().loan_request.lender_status).toBe('saved');
  });

  it('--quiet still shows the review and the warning that the questions refer to', async () => {
    const id = await newLoanId('quiet@example.com');
    const pty = await approveInTerminal(id, ['--quiet']);
    await pty.answer(/Approve loan request/, 'y');
    const screen = await pty.waitForPrompt('Approve anyway, despite the warning above?');
    expect(screen).toContain(`warning: loan request ${id} was never submitted by the borrower.`);
    expect(screen).toContain('5 % per month (simple interest)');
    await pty.type('y');
    await pty.keys('Enter');
    expect(await pty.exitCode()).toBe(0);
    // Quiet otherwise: no "Approved loan request …" notice after the answer.
    expect(await pty.screen()).not.toContain(`Approved loan request ${id}`);
  });

  it('re-approving on a terminal asks whether to replace the terms; yes replaces them without --reapprove', async () => {
    const id = await newLoanId('again@example.com');
    const first = await approveInTerminal(id);
    await first.answer(/Approve loan request/, 'y');
    await first.answer('Approve anyway, despite the warning above?', 'y');
    expect(await first.exitCode()).toBe(0);
    const second = await approveInTerminal(id);
    await second.answer(/Approve loan request/, 'y');
    await second.answer(`Loan request ${id} is already approved: replace its terms anyway?`, 'y');
    expect(await second.exitCode()).toBe(0);
  });
});

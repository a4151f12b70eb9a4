/**
 * `loanctl loan new` end to end in a real pseudo-terminal: the built CLI runs in tmux against the
 * in-process sandbox (seeds and checks run through runCli, in-process); the test types answers, presses Enter and arrow keys, reads the screen
 * with capture-pane (polling, never sleeping a fixed time), and checks the loan request that
 * results through the CLI's own `loan show -o json`. Also Ctrl-C mid-way (exit 130 and the
 * resume hint on screen), `--resume` picking a loan request up again, and Ctrl-C while a request
 * hangs. Each test seeds what it needs through the CLI (`-o json`), so any one runs alone or in
 * any order; no final screen shows the API key.
 *
 * Skipped, saying so, where tmux is missing; .ci/run installs it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, LOANCTL, loanctlPath, ROOT } from '../helpers/cli.js';
import { hasTmux, TmuxPty } from '../helpers/pty.js';
import { type CliSandbox, cliSandbox, runCli } from '../helpers/run-cli.js';

const HAS_TMUX = hasTmux();
if (!HAS_TMUX) console.warn('loan-new-pty: tmux is not installed; skipping the pseudo-terminal tests.');

describe.skipIf(!HAS_TMUX)('loan new in a real terminal (tmux)', () => {
  let base: string;
  let sandbox: CliSandbox;
  let env: Record<string, string>;
  const ptys: TmuxPty[] = [];

  beforeAll(async () => {
    assertBuilt();
    base = mkdtempSync(join(tmpdir(), 'loanctl-pty-'));
    env = {
      // tmux, and what the session's `sh -c` runs besides loanctl (pty.ts).
      PATH: loanctlPath(['tmux', 'sh', 'sleep']),
      HOME: join(base, 'home'),
      TZ: 'UTC',
      LOANCTL_CONFIG_DIR: join(base, 'config'),
    };
    sandbox = await cliSandbox();
    env = {
      ...env,
      LOANCTL_BASE_URL: sandbox.url,
      LOANCTL_API_KEY: sandbox.api_key,
      LOANCTL_PRODUCT_ID: String(sandbox.product_id),
    };
  });

  afterAll(async () => {
    for (const pty of ptys) await pty.killServer();
    await sandbox?.close();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  /** `loanctl ARGS` in a new tmux session: CI is not set, stdin and stdout are the terminal. */
  async function terminal(...args: string[]): Promise<TmuxPty> {
    return terminalWith(env, ...args);
  }

  async function terminalWith(runEnv: Record<string, string>, ...args: string[]): Promise<TmuxPty> {
    const pty = await TmuxPty.start([...LOANCTL, ...args], { env: runEnv, cwd: ROOT });
    ptys.push(pty);
    return pty;
  }

  async function cli(args: string[], input?: string) {
    const result = await runCli(args, { env, stdin: input });
    if (result.exitCode !== 0) throw new Error(`loanctl ${args.join(' ')}: exit ${result.exitCode}: ${result.stderr}`);
    return result.json<Record<string, unknown>>();
  }

  /** A borrower of this test's own, made through the CLI (each test seeds what it needs). */
  async function seedBorrower(email: string): Promise<void> {
    const flags = ['--firstname', 'Ada', '--lastname', 'Obi', '--email', email, '--phone', '08012345678'];
    await cli(['user', 'create', ...flags, '--gender', 'female', '--password-stdin', '-o', 'json'], 'pw');
  }

  /** A borrower and a loan request of this test's own; the loan request's id. */
  async function seedLoanRequest(email: string, amount: string, purpose: string): Promise<number> {
    await seedBorrower(email);
    const loan = await cli(['loan', 'create', '--user', email, '--amount', amount, '--purpose', purpose, '-o', 'json']);
    return loan.id as number;
  }

  /** Moves the menu's cursor down to `choice`, then takes it. */
  async function pick(pty: TmuxPty, question: string, choice: string): Promise<void> {
    await pty.waitForPrompt(question);
    for (let moves = 0; moves < 10; moves++) {
      const screen = await pty.screen();
      if (new RegExp(`^❯ ${choice}`, 'm').test(screen)) {
        await pty.keys('Enter');
        return;
      }
      await pty.keys('Down');
      await pty.waitFor((current) => current !== screen);
    }
    throw new Error(`no "${choice}" in the menu:\n${await pty.screen()}`);
  }

  // The whole guided flow, a dozen steps through a real terminal: at load average 20–30 on two cores
  // it took more than 30 s, so it has a limit of its own; each step still waits for its own screen.
  it('creates a borrower and a loan request, adds bank details and a guarantor, submits and approves', async () => {
    const pty = await terminal('loan', 'new');
    await pty.answer("Borrower's e-mail", 'ada.pty@example.com');
    await pty.answer(/No borrower with e-mail ada\.pty@example\.com yet\. Create one\?/, 'y');
    await pty.answer('First name', 'Ada');
    await pty.answer('Last name', 'Obi');
    // A wrong phone is refused on the spot, with the reason, and asked again.
    await pty.answer('Phone', '12345');
    await pty.waitFor('Phone must be a Nigerian phone number');
    await pty.keys('C-u');
    await pty.type('0801 234 5678');
    await pty.keys('Enter');
    await pty.answer('Gender', 'female');
    await pty.answer("Borrower's password", 's3cret');
    let screen = await pty.waitFor(/Created borrower Ada Obi \(user \d+\)\./);
    expect(screen).toContain("✔ Borrower's password ******");
    expect(screen).not.toContain('s3cret');

    await pty.answer('Amount requested', '50,000');
    await pty.answer('Purpose of the loan', 'Shop stock');
    screen = await pty.waitFor(/Created loan request (\d+) \([0-9A-Za-z]{16}\) for Ada Obi\./);
    const id = Number(/Created loan request (\d+)/.exec(screen)?.[1]);

    await pick(pty, 'What next?', 'Add bank details');
    await pty.answer('Bank code', '058');
    await pty.answer('Account name', ''); // the default: the borrower's name
    await pty.answer('Account number', '0123456789');
    await pty.answer('Bank name', 'GTBank');
    await pty.waitFor(`Added bank details to loan request ${id}.`);

    await pick(pty, 'What next?', 'Add a guarantor');
    await pty.answer("Guarantor's first name", 'Chi');
    await pty.answer("Guarantor's last name", 'Eze');
    await pty.answer("Guarantor's gender", 'male');
    await pty.answer('Relationship to the borrower', 'brother');
    await pty.answer("Guarantor's e-mail", 'chi.pty@example.com');
    await pty.answer("Guarantor's phone", '08055555555');
    await pty.answer('Add another guarantor?', 'n');

    await pick(pty, 'What next?', 'Review and submit');
    screen = await pty.waitForPrompt(`Submit loan request ${id} now?`);
    expect(screen).toMatch(/Borrower\s+Ada Obi <ada\.pty@example\.com>/);
    expect(screen).toMatch(/Amount\s+50,000\.00/);
    expect(screen).toMatch(/Bank details\s+058 · Ada Obi · 0123456789 · GTBank/);
    expect(screen).toMatch(/Guarantors\s+Chi Eze \(brother\) · \+2348055555555/);
    await pty.keys('Enter'); // Yes is the default
    await pty.waitFor(`Submitted loan request ${id}.`);

    await pty.answer(`Approve loan request ${id} now?`, 'y');
    await pty.waitForPrompt('Approved amount');
    await pty.keys('C-u'); // clear the default (the amount requested)
    await pty.type('45000');
    await pty.keys('Enter');
    await pick(pty, 'Tenure in', 'months');
    await pty.answer('Tenure', '3');
    await pick(pty, 'Rate type', 'simple-interest');
    await pty.answer('Rate', '5');
    await pick(pty, 'Repayment frequency', 'monthly');
    await pty.answer('Grace period', '');
    await pty.answer('Move due dates off weekends?', 'n');
    await pty.answer('Note', 'good history');

    // The repayment preview is on screen before the question.
    screen = await pty.waitForPrompt(
      new RegExp(`Approve loan request ${id}: 45,000\\.00 at 5 % per month \\(simple interest\\)`),
    );
    expect(screen).toContain('Loan of 45,000.00 at 5 % per month (simple interest) over 3 months, repaid monthly.');
    expect(screen).toMatch(/Total\s+45,000\.00\s+6,750\.00\s+51,750\.00/);
    expect(screen).toContain('3 instalments;');
    await pty.type('y');
    await pty.keys('Enter');

    expect(await pty.exitCode()).toBe(0);
    screen = await pty.screen();
    expect(screen).toContain(`Approved loan request ${id}: 45,000.00 at 5 % per month (simple interest) over 3 months`);
    expect(screen).toMatch(/Lender status\s+approved/);
    expect(screen).toMatch(/Estimated repayment\s+51,750\.00/);
    expect(screen).not.toContain(sandbox.api_key);

    // What the API now holds.
    const view = await cli(['loan', 'show', String(id), '-o', 'json']);
    expect(view.loan_request).toMatchObject({
      id,
      amount: 50000,
      purpose: 'Shop stock',
      fullname: 'Ada Obi',
      user_status: 'submitted',
      lender_status: 'approved',
      terms: { approved_amount: 45000, rate: 5, tenure: 3, tenured_in: 'months', note: 'good history' },
    });
    expect(view.progress).toBe('approved');
    expect(view.bank_details).toMatchObject([
      { code: '058', account_name: 'Ada Obi', account_number: '0123456789', bank_name: 'GTBank' },
    ]);
    expect(view.guarantors).toMatchObject([{ firstname: 'Chi', lastname: 'Eze', phone: '+2348055555555' }]);
  }, 120_000);

  it('Ctrl-C mid-way exits 130 and shows what was created and the command that continues', async () => {
    await seedBorrower('ctrlc.pty@example.com');
    const pty = await terminal('loan', 'new');
    await pty.answer("Borrower's e-mail", 'ctrlc.pty@example.com');
    await pty.waitFor(/Found Ada Obi \(user \d+/);
    await pty.answer('Amount requested', '20000');
    await pty.answer('Purpose of the loan', 'Freezer');
    const created = await pty.waitFor(/Created loan request (\d+)/);
    const resumeId = Number(/Created loan request (\d+)/.exec(created)?.[1]);
    await pick(pty, 'What next?', 'Add employment');
    await pty.answer('Employment status', 'employed');
    await pty.waitForPrompt("Employer's name");
    await pty.keys('C-c');

    expect(await pty.exitCode()).toBe(130);
    const screen = await pty.screen();
    expect(screen).toContain('Stopped. Created so far:');
    expect(screen).toContain(`loan request ${resumeId} (20,000.00, Freezer)`);
    expect(screen).toContain(`loanctl: Cancelled. Continue with: loanctl loan new --resume ${resumeId}`);
    expect(screen).not.toContain(sandbox.api_key);
    // Nothing of the unfinished step was sent.
    const view = await cli(['loan', 'show', String(resumeId), '-o', 'json']);
    expect(view.employment).toBeNull();
    expect(view.progress).toBe('new');
  });

  it('--resume picks the loan request up and offers the steps that remain', async () => {
    const resumeId = await seedLoanRequest('resume.pty@example.com', '20000', 'Freezer');
    const pty = await terminal('loan', 'new', '--resume', String(resumeId));
    let screen = await pty.waitForPrompt('What next?');
    expect(screen).toContain(`Loan request ${resumeId} (`);
    expect(screen).toContain('Progress: new;');
    await pick(pty, 'What next?', 'Add bank details');
    await pty.answer('Bank code', '044');
    await pty.answer('Account name', '');
    await pty.answer('Account number', '');
    await pty.answer('Bank name', '');
    await pty.waitFor(`Added bank details to loan request ${resumeId}.`);
    // Bank details are done: the menu no longer offers them.
    screen = await pty.waitForPrompt('What next?');
    const menu = screen.slice(screen.lastIndexOf('? What next?'));
    expect(menu).not.toContain('Add bank details');
    expect(menu).toContain('Add employment');
    await pick(pty, 'What next?', 'Finish later');
    expect(await pty.exitCode()).toBe(0);
    screen = await pty.screen();
    expect(screen).toContain(`Continue with: loanctl loan new --resume ${resumeId}`);
    expect(screen).not.toContain(sandbox.api_key);
    const view = await cli(['loan', 'show', String(resumeId), '-o', 'json']);
    expect(view.bank_details).toMatchObject([{ code: '044', account_name: 'Ada Obi' }]);
  });

  it('Ctrl-C while a request hangs exits 130 at once, not when the request times out', async () => {
    // A server that takes every request and never answers: the lookup by e-mail hangs.
    const sockets = new Set<Socket>();
    const received: IncomingMessage[] = [];
    const silent = createServer((request) => {
      received.push(request);
    });
    silent.on('connection', (socket) => {
      sockets.add(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      const pty = await terminalWith(
        {
          ...env,
          LOANCTL_BASE_URL: `http://127.0.0.1:${port}`,
          LOANCTL_API_KEY: 'sk_test_silent_server_key',
          LOANCTL_PRODUCT_ID: '1',
        },
        '--timeout',
        '60',
        'loan',
        'new',
      );
      await pty.answer("Borrower's e-mail", 'nobody@example.com');
      const deadline = Date.now() + 10_000;
      while (received.length === 0) {
        if (Date.now() > deadline) throw new Error(`the lookup never reached the server:\n${await pty.screen()}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await pty.keys('C-c');
      const pressed = Date.now();
      // Waiting for the request would take the 60 s of --timeout; the process must not.
      expect(await pty.exitCode({ timeoutMs: 8_000 })).toBe(130);
      expect(Date.now() - pressed).toBeLessThan(8_000);
      const screen = await pty.screen();
      expect(screen).toContain('Nothing was created.');
      // Only a lookup was out: it changed nothing, so there is no note and nothing to check.
      expect(screen).not.toContain('Ctrl-C came while');
      expect(screen).not.toContain('command below');
      expect(screen).toMatch(/^loanctl: Cancelled\.\n\[exited 130\]$/m);
      expect(screen).not.toContain('sk_test_silent_server_key');
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

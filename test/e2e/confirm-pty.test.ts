/**
 * Confirmations in a real terminal (tmux): declining `loan delete` is exit 130 and deletes
 * nothing; `--no-color` keeps inquirer's prompt free of colour escapes (inquirer colours on its
 * own, so the flag has to reach it before it loads). Skipped, saying so, where tmux is missing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, type E2eSandbox, run, startSandbox } from '../helpers/cli.js';
import { hasTmux, TmuxPty } from '../helpers/pty.js';

const HAS_TMUX = hasTmux();
if (!HAS_TMUX) console.warn('confirm-pty: tmux is not installed; skipping the pseudo-terminal tests.');

describe.skipIf(!HAS_TMUX)('confirmations in a real terminal', () => {
  let sandbox: E2eSandbox;
  const ptys: TmuxPty[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    for (const pty of ptys) await pty.killServer();
    await sandbox?.stop();
  });

  async function newLoanId(email: string): Promise<number> {
    const user = await run(
      sandbox,
      [
        'user',
        'create',
        '--firstname',
        'Ada',
        '--lastname',
        'Obi',
        '--email',
        email,
        '--phone',
        '08012345678',
        '--gender',
        'female',
        '--password-stdin',
      ],
      { input: 'pw' },
    );
    expect(user.code, user.stderr).toBe(0);
    const loan = await run(sandbox, ['loan', 'create', '--user', email, '--amount', '50000', '--purpose', 'stock']);
    expect(loan.code, loan.stderr).toBe(0);
    return loan.json<{ id: number }>().id;
  }

  async function inTerminal(args: string[], colourEnv: Record<string, string> = {}): Promise<TmuxPty> {
    const { NO_COLOR: _ignored, ...env } = sandbox.env;
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
    const progress = await run(sandbox, ['loan', 'progress', String(id)]);
    expect(progress.code, progress.stderr).toBe(0);
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
});

/**
 * The in-process runner (test/helpers/run-cli.ts) must not let one run change the test process for
 * the next: a run that leaves process.exitCode set or a signal handler behind fails. (Here the
 * leak is made from the prompter, which runs inside main().)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedCliEnv, runCli } from '../helpers/run-cli.js';

// A command that asks before it sends anything (loan approve now reads the loan request first).
const CONFIRMING = ['loan', 'delete', '5'];
const env = () =>
  isolatedCliEnv({ LOANCTL_PRODUCT_ID: '7', LOANCTL_API_KEY: 'k', LOANCTL_BASE_URL: 'http://127.0.0.1:1' });
const stray = () => {};

afterEach(() => {
  process.exitCode = undefined;
  process.off('SIGINT', stray);
});

describe('runCli', () => {
  it('returns the exit code main returns, with the streams the run wrote', async () => {
    const result = await runCli(CONFIRMING, { env: env(), tty: true, prompter: { confirm: async () => false } });
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toBe('loanctl: Cancelled; nothing was sent.\n');
  });

  it('fails a run that sets process.exitCode', async () => {
    const leak = async () => {
      process.exitCode = 9;
      return false;
    };
    await expect(runCli(CONFIRMING, { env: env(), tty: true, prompter: { confirm: leak } })).rejects.toThrow(
      /changed the test process: exitCode was undefined, is 9/,
    );
  });

  it('fails a run that leaves a SIGINT handler behind', async () => {
    const leak = async () => {
      process.on('SIGINT', stray);
      return false;
    };
    await expect(runCli(CONFIRMING, { env: env(), tty: true, prompter: { confirm: leak } })).rejects.toThrow(
      /SIGINT was/,
    );
  });
});

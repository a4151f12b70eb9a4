/**
 * `loanctl loan wait ID --until submitted|approved`: exit 0 once the state is reached (also when a
 * person approves it in the dashboard meanwhile), 124 when --timeout passes first, 130 on Ctrl-C,
 * 2 for a bad --until or duration, 4 for a loan request of no one's. The waits run on the CLI's
 * clock, advanced by its sleep (the boundary runCli gives), so no test waits in real time; Ctrl-C
 * needs a process, so that one spawns the built bin.
 */
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, BIN } from '../helpers/cli.js';
import { csrfOf, InjectBrowser, seedSubmittedLoan } from '../helpers/dashboard.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';
import { seedLoanRequest } from '../helpers/sandbox.js';

let sandbox: CliSandbox;

beforeAll(async () => {
  sandbox = await cliSandbox();
});
afterAll(() => sandbox.close());

/** A clock that only the CLI's own sleeps move, and what each sleep asked for. */
function virtualTime(onSleep: (slept: number[]) => Promise<void> | void = () => {}) {
  let now = Date.parse('2026-06-01T10:00:00Z');
  const slept: number[] = [];
  return {
    slept,
    now: () => new Date(now),
    sleep: async (ms: number) => {
      slept.push(ms);
      now += ms;
      await onSleep(slept);
    },
  };
}

describe('loan wait', () => {
  it('exits 0 at once when the loan request is already submitted', async () => {
    const { loanId } = await seedSubmittedLoan(sandbox.app, sandbox.org);
    const time = virtualTime();
    const result = await sandbox.run(['loan', 'wait', String(loanId), '--until', 'submitted'], time);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(`Loan request ${loanId} is waiting for approval (after 0s).`);
    expect(result.stdout).toBe('');
    expect(time.slept).toEqual([]);
  });

  it('keeps polling, backing off, until a person approves it in the dashboard', async () => {
    const { loanId } = await seedSubmittedLoan(sandbox.app, sandbox.org, { amount: 1000 });
    const approveInDashboard = async () => {
      const browser = new InjectBrowser(sandbox.app);
      await browser.signIn(sandbox.api_key);
      const form = await browser.get(`/dashboard/loans/${loanId}/approve`);
      const terms = { approved_amount: '1000', rate: '1', tenure: '2', tenured_in: 'months' };
      await browser.post(`/dashboard/loans/${loanId}/approve`, {
        ...terms,
        rate_type: 'simple-interest',
        frequency: 'monthly',
        token: csrfOf(form.body),
      });
    };
    const time = virtualTime(async (slept) => {
      if (slept.length === 3) await approveInDashboard();
    });
    const result = await sandbox.run(['loan', 'wait', String(loanId), '--until', 'approved', '--interval', '2s'], {
      ...time,
      tty: true,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(
      `Waiting for loan request ${loanId} to be approved: waiting for approval now, 5s of 10m00s`,
    );
    expect(result.stderr).toContain(`Loan request ${loanId} is approved`);
    expect(time.slept).toEqual([2000, 3000, 4500]);
  });

  it('exits 124 when --timeout passes first, saying where the loan request stands', async () => {
    const { loanRequestId } = await seedLoanRequest(sandbox.app, sandbox.org);
    const time = virtualTime();
    const result = await sandbox.run(
      ['loan', 'wait', String(loanRequestId), '--until', 'submitted', '--timeout', '1m', '--interval', '10s'],
      time,
    );
    expect(result.exitCode).toBe(124);
    expect(result.stderr).toContain(
      `Loan request ${loanRequestId} is not waiting for approval after 1m00s (it is created)`,
    );
    expect(time.slept).toEqual([10_000, 15_000, 22_500, 12_500]);
  });

  it('refuses a bad --until or duration before sending anything (2), and a loan request not ours (4)', async () => {
    expect((await sandbox.run(['loan', 'wait', '1', '--until', 'paid'])).exitCode).toBe(2);
    expect((await sandbox.run(['loan', 'wait', '1'])).stderr).toContain('Missing --until');
    // The stages offered are the state table's.
    expect((await sandbox.run(['loan', 'wait', '1', '--until', 'paid'])).stderr).toContain(
      'Pass --until with a stage: created, waiting, submitted, approved.',
    );
    expect((await sandbox.run(['loan', 'wait', '1', '--until', 'approved', '--interval', 'soon'])).exitCode).toBe(2);
    expect((await sandbox.run(['loan', 'wait', '999999', '--until', 'approved'])).exitCode).toBe(4);
  });

  it('Ctrl-C stops the wait with 130', async () => {
    assertBuilt();
    const { loanRequestId } = await seedLoanRequest(sandbox.app, sandbox.org);
    const child = execa(
      process.execPath,
      [BIN, '--debug', 'loan', 'wait', String(loanRequestId), '--until', 'approved'],
      {
        env: sandbox.env as Record<string, string>,
        extendEnv: false,
        reject: false,
      },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    // The SIGINT handler is in place before the first look-up goes out.
    for (let waited = 0; !stderr.includes('loan_request'); waited += 20) {
      if (waited > 20_000) throw new Error(`no request in 20 s: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(stderr).toContain(`Stopped waiting for loan request ${loanRequestId} (Ctrl-C)`);
  });
});

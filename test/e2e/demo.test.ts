/**
 * `loanctl demo` through the real built CLI (`npm run build` first): the screen a new user sees,
 * the JSON a script gets, that nothing is left listening or on disk, and `--keep` with the
 * `sandbox` profile answering `loan show`, then Ctrl-C.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertBuilt, BIN, keptDemo, ROOT, spawnHome } from '../helpers/cli.js';

let home: string;
let env: Record<string, string>;
let removeHome: () => void;

beforeEach(() => {
  assertBuilt();
  ({ home, env, remove: removeHome } = spawnHome('loanctl-e2e-demo-'));
});

afterEach(() => removeHome());

function loanctl(args: string[], extra: { input?: string } = {}) {
  return execa(process.execPath, [BIN, ...args], {
    env,
    extendEnv: false,
    reject: false,
    input: extra.input ?? '',
    timeout: 25_000,
    cwd: ROOT,
  });
}

function narrated(stderr: string): { url: string; dataDir: string } {
  const match = /Sandbox: (http:\/\/127\.0\.0\.1:\d+) .* data in (\S+)/.exec(stderr);
  if (!match?.[1] || !match[2]) throw new Error(`no sandbox line in the narration:\n${stderr}`);
  return { url: match[1], dataDir: match[2] };
}

async function refusesConnections(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return false;
  } catch {
    return true;
  }
}

describe('loanctl demo', () => {
  it('runs the whole flow: tables on stdout, every step narrated on stderr, nothing left behind', async () => {
    const result = await loanctl(['demo']);
    const stdout = String(result.stdout);
    const stderr = String(result.stderr);
    expect(result.exitCode, stderr).toBe(0);

    const titles = [
      'Create a borrower',
      'Request a loan',
      'Add bank details',
      'Add employment',
      'Add a guarantor',
      'Submit',
      'Preview the repayment schedule',
      'Approve',
      'Show the loan request',
    ];
    for (const [index, title] of titles.entries()) expect(stderr).toContain(`Step ${index + 1}/9 · ${title}`);
    expect(stderr).toContain('$ loanctl user create --firstname Amaka --lastname Okafor');
    expect(stderr).toContain('$ loanctl loan show 1');
    expect(stderr).toContain('Stopped the sandbox and removed its data.');

    expect(stdout).toMatch(/^Borrower\s+Amaka Okafor$/m);
    expect(stdout).toMatch(/^Lender status\s+approved$/m);
    expect(stdout).toMatch(/^Approved by\s+Demo Lender \(API\)$/m);
    expect(stdout).toMatch(/^Approved amount\s+45,000\.00$/m);
    expect(stdout).toMatch(/^Amount\s+50,000\.00$/m);
    expect(stdout).toContain('Repayment 58,500.00, of which interest 13,500.00.');
    expect(stdout).toMatch(/^Guarantors \(1\)$/m);
    expect(`${stdout}${stderr}`).not.toMatch(/sk_sandbox_/);

    const { url, dataDir } = narrated(stderr);
    expect(dataDir.startsWith(home)).toBe(true);
    expect(existsSync(dataDir)).toBe(false);
    expect(await refusesConnections(url)).toBe(true);
    // No profile was written: the user's config dir was never created.
    expect(existsSync(env.LOANCTL_CONFIG_DIR as string)).toBe(false);
  });

  it('-o json: stdout is one JSON array, a {step, title, command, result} per step', async () => {
    const result = await loanctl(['demo', '-o', 'json']);
    expect(result.exitCode, String(result.stderr)).toBe(0);
    const steps = JSON.parse(String(result.stdout)) as { step: number; command: string; result: never }[];
    expect(steps.map((step) => step.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(steps[2]?.command).toBe(
      'loanctl loan add-bank 1 --code 058 --account-name "Amaka Okafor" --account-number 0123456789 --bank-name GTBank',
    );
    expect(steps[8]?.result).toMatchObject({
      loan_request: { lender_status: 'approved', terms: { approved_amount: 45_000, estimated_repayment: 58_500 } },
      bank_details: [{ code: '058' }],
    });
  });

  it('-o ndjson: one step a line', async () => {
    const result = await loanctl(['demo', '-o', 'ndjson']);
    expect(result.exitCode, String(result.stderr)).toBe(0);
    const lines = String(result.stdout).trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line).title)).toHaveLength(9);
  });

  it('-o csv is a usage error, before anything starts', async () => {
    const result = await loanctl(['demo', '-o', 'csv']);
    expect(result.exitCode).toBe(2);
    expect(String(result.stderr)).toMatch(/^loanctl: The demo does not print CSV/);
    expect(String(result.stdout)).toBe('');
  });

  it('--keep: the sandbox profile answers `loan show 1` until Ctrl-C, which exits 0', async () => {
    const { child, stderr: written } = await keptDemo(env, 20_000);
    try {
      const stderr = written();
      expect(stderr).toContain('Profile "sandbox" points at this sandbox');
      expect(stderr).toContain('loanctl --profile sandbox loan show 1');
      const { url, dataDir } = narrated(stderr);
      expect(stderr).toContain(`The lender dashboard: ${url}/dashboard`);

      const config = JSON.parse(readFileSync(join(env.LOANCTL_CONFIG_DIR as string, 'config.json'), 'utf8'));
      expect(config.profiles.sandbox).toMatchObject({ baseUrl: url, productId: 1 });
      expect(stderr).not.toContain(config.profiles.sandbox.apiKey);

      const show = await loanctl(['--profile', 'sandbox', 'loan', 'show', '1', '-o', 'json']);
      expect(show.exitCode, String(show.stderr)).toBe(0);
      expect(JSON.parse(String(show.stdout))).toMatchObject({
        loan_request: { id: 1, lender_status: 'approved', fullname: 'Amaka Okafor' },
        progress: 'approved',
        guarantors: [{ firstname: 'Chinedu' }],
      });

      child.kill('SIGINT');
      const result = await child;
      expect(result.exitCode, written()).toBe(0);
      expect(written()).toContain('Sandbox stopped.');
      expect(await refusesConnections(url)).toBe(true);
      expect(existsSync(join(dataDir, 'sandbox.db'))).toBe(true);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});

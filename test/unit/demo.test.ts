/**
 * `loanctl demo` in-process (runDemo with fake io and a real sandbox on a free port): what it
 * prints in each format, that it leaves nothing behind (no server, no temp dir, no profile), that
 * the user's own settings are neither used nor changed, and Ctrl-C, failures and --keep.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GlobalOptions } from '../../src/basics.js';
import { type DemoOptions, runDemo } from '../../src/commands/demo/run.js';
import { DEMO_STEPS, flags, shellLine, shellQuote } from '../../src/commands/demo/steps.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { CancelledError, ExitCode, UsageError } from '../../src/errors.js';
import { type FakeIo, fakeIo } from '../helpers/fake-io.js';

let base: string;
let tmp: string;
let configDir: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'loanctl-demo-unit-'));
  tmp = join(base, 'tmp');
  configDir = join(base, 'config');
  mkdirSync(tmp);
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

function demoDeps(globals: GlobalOptions = {}, env: Record<string, string> = {}): { deps: Deps; io: FakeIo } {
  const io = fakeIo();
  const deps = createDeps({
    io,
    env: { HOME: join(base, 'home'), LOANCTL_CONFIG_DIR: configDir, NO_COLOR: '1', ...env },
    globals,
  });
  return { deps, io };
}

async function demo(options: Omit<DemoOptions, 'tmpDir'> = {}, globals: GlobalOptions = {}, env = {}) {
  const { deps, io } = demoDeps(globals, env);
  const outcome = await runDemo({ ...options, tmpDir: tmp }, deps).then(
    () => undefined,
    (error: unknown) => error,
  );
  return { error: outcome, stdout: io.stdout.text(), stderr: io.stderr.text() };
}

function sandboxUrl(stderr: string): string {
  const url = /Sandbox: (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1];
  if (!url) throw new Error(`no sandbox URL in the narration:\n${stderr}`);
  return url;
}

async function refusesConnections(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return false;
  } catch {
    return true;
  }
}

describe('loanctl demo (table)', () => {
  it('narrates nine steps on stderr and prints each result as a table on stdout, then cleans up', async () => {
    const { error, stdout, stderr } = await demo();
    expect(error).toBeUndefined();

    for (const [index, step] of DEMO_STEPS.entries()) {
      expect(stderr).toContain(`Step ${index + 1}/${DEMO_STEPS.length} · ${step.title}`);
    }
    expect(stderr).toContain(
      '$ loanctl loan add-bank 1 --code 058 --account-name "Amaka Okafor" --account-number 0123456789 --bank-name GTBank',
    );
    expect(stderr).toContain('$ loanctl loan approve 1 --approved-amount 45000 --rate 5 --tenure 6');
    expect(stderr).toContain('Done: loan request 1 is approved: 45,000.00 over 6 months, 58,500.00 to repay');
    expect(stderr).toContain('Stopped the sandbox and removed its data.');
    expect(stderr).toContain('loanctl demo --keep');
    // `sandbox start` keeps the terminal: the guided flow after it is typed in another one.
    expect(stderr).toMatch(
      /^ {2}loanctl sandbox start\s+.*\n {2}loanctl --profile sandbox loan new\s+in another terminal:/m,
    );
    // The verbs' own "next:" hints would contradict the demo's next step.
    expect(stderr).not.toMatch(/^next: /m);

    // Tables, not JSON, although stdout is not a terminal.
    expect(stdout).not.toMatch(/^\s*[{[]/);
    expect(stdout).toMatch(/^Email\s+amaka\.okafor@example\.com$/m);
    expect(stdout).toMatch(/^Lender status\s+approved$/m);
    expect(stdout).toMatch(/^Approved amount\s+45,000\.00$/m);
    expect(stdout).toMatch(/^Estimated repayment\s+58,500\.00$/m);
    expect(stdout).toMatch(/^Salary\s+350,000\.00$/m);
    expect(stdout).toContain('Total           45,000.00  13,500.00  58,500.00');
    expect(stdout).toMatch(/^1\s+GTBank\s+058\s+Amaka Okafor\s+0123456789/m);
    expect(stdout).toMatch(/^Bank details \(1\)$/m);

    // No key anywhere, no server, no temp dir, no profile written.
    expect(`${stdout}${stderr}`).not.toMatch(/sk_sandbox_/);
    expect(await refusesConnections(sandboxUrl(stderr))).toBe(true);
    expect(readdirSync(tmp)).toEqual([]);
    expect(existsSync(configDir)).toBe(false);
  });

  it('neither uses nor changes the settings of the user: profiles, LOANCTL_* variables', async () => {
    mkdirSync(configDir, { mode: 0o700 });
    const config = `${JSON.stringify(
      {
        current: 'prod',
        profiles: { prod: { baseUrl: 'https://lender.example.com', apiKey: 'sk_live_0123456789abcdef', productId: 7 } },
      },
      null,
      2,
    )}\n`;
    writeFileSync(join(configDir, 'config.json'), config, { mode: 0o600 });

    const { error, stderr } = await demo(
      {},
      {},
      {
        LOANCTL_PROFILE: 'prod',
        LOANCTL_BASE_URL: 'https://elsewhere.example.com',
        LOANCTL_API_KEY: 'sk_live_wrong',
        LOANCTL_PRODUCT_ID: '99',
      },
    );
    expect(error).toBeUndefined();
    expect(stderr).not.toContain('lender.example.com');
    expect(readFileSync(join(configDir, 'config.json'), 'utf8')).toBe(config);
    expect(readdirSync(configDir)).toEqual(['config.json']);
  });
});

describe('loanctl demo --debug', () => {
  it('logs each request on stderr with the key redacted', async () => {
    const { error, stdout, stderr } = await demo({}, { debug: true });
    expect(error).toBeUndefined();
    expect(stderr).toMatch(/^debug: > POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/user$/m);
    expect(stderr).toContain('Bearer ***');
    expect(`${stdout}${stderr}`).not.toMatch(/sk_sandbox_/);
  });
});

describe('loanctl demo -o json / ndjson', () => {
  it('-o ndjson: one line per step, {step, title, command, result}', async () => {
    const { error, stdout, stderr } = await demo({}, { output: 'ndjson' });
    expect(error).toBeUndefined();
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(DEMO_STEPS.length);
    const steps = lines.map((line) => JSON.parse(line));
    expect(steps.map((step) => step.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(steps[0]).toMatchObject({
      title: 'Create a borrower',
      command: expect.stringMatching(/^loanctl user create --firstname Amaka /),
      result: { email: 'amaka.okafor@example.com', status: 'created' },
    });
    expect(steps[4].result).toEqual([expect.objectContaining({ firstname: 'Chinedu', relationship: 'brother' })]);
    expect(steps[6].result).toMatchObject({ total_repayment: 58_500 });
    expect(steps[7].result).toMatchObject({ lender_status: 'approved', terms: { estimated_repayment: 58_500 } });
    expect(steps[8].result).toMatchObject({ loan_request: { id: 1, lender_status: 'approved' }, progress: 'approved' });
    // JSON passes values through unchanged: no separators.
    expect(stdout).not.toContain('45,000');
    expect(stderr).toContain('Step 9/9');
  });

  it('-o json: one JSON array of the same step objects', async () => {
    const { error, stdout } = await demo({}, { output: 'json' });
    expect(error).toBeUndefined();
    const steps = JSON.parse(stdout) as { step: number; title: string; result: unknown }[];
    expect(steps).toHaveLength(DEMO_STEPS.length);
    expect(steps.map((step) => step.title)).toEqual(DEMO_STEPS.map((step) => step.title));
    expect(steps[1]?.result).toMatchObject({ id: 1, amount: 50_000, status: 'saved' });
  });
});

describe('loanctl demo: refusals before anything starts', () => {
  it.each<[GlobalOptions, RegExp]>([
    [{ output: 'csv' }, /does not print CSV/],
    [{ raw: true }, /does not take --raw/],
    [{ fields: 'id' }, /does not take --fields/],
    [{ profile: 'prod' }, /does not take --profile/],
    [{ baseUrl: 'http://127.0.0.1:4010', dryRun: true }, /does not take --base-url, --dry-run/],
    [{ timeout: 'soon' }, /--timeout/],
  ])('%o → exit 2', async (globals, message) => {
    const { error, stdout, stderr } = await demo({}, globals);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(ExitCode.usage);
    expect((error as Error).message).toMatch(message);
    expect(stdout).toBe('');
    expect(stderr).toBe('');
    expect(readdirSync(tmp)).toEqual([]);
  });
});

describe('loanctl demo: Ctrl-C and failures', () => {
  it('Ctrl-C between steps: exit 130, the sandbox stopped, the temp dir removed, nothing more printed', async () => {
    const { error, stdout, stderr } = await demo({
      beforeStep: (step) => {
        if (step === 4) process.emit('SIGINT');
      },
    });
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).exitCode).toBe(ExitCode.cancelled);
    expect(stderr).toContain('Step 3/9');
    expect(stderr).not.toContain('Step 4/9');
    expect(stdout).not.toContain('Lekki Foods');
    expect(await refusesConnections(sandboxUrl(stderr))).toBe(true);
    expect(readdirSync(tmp)).toEqual([]);
    expect(process.listenerCount('SIGINT')).toBe(0);
  });

  it('Ctrl-C while a step runs: the step is abandoned and prints nothing after', async () => {
    const stop = new AbortController();
    const { error, stdout, stderr } = await demo({
      stopSignal: stop.signal,
      beforeStep: (step) => {
        if (step === 5) setImmediate(() => stop.abort());
      },
    });
    expect(error).toBeInstanceOf(CancelledError);
    expect(stderr).toContain('Step 5/9');
    expect(stderr).not.toContain('Step 6/9');
    expect(stdout).not.toContain('Chinedu');
    expect(await refusesConnections(sandboxUrl(stderr))).toBe(true);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('a failing step: its error comes out as is, and the sandbox is stopped and removed all the same', async () => {
    const { error, stderr } = await demo({
      beforeStep: (step) => {
        if (step === 6) throw new UsageError('boom');
      },
    });
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe('boom');
    expect(await refusesConnections(sandboxUrl(stderr))).toBe(true);
    expect(readdirSync(tmp)).toEqual([]);
  });
});

describe('loanctl demo --keep', () => {
  it('writes the sandbox profile, keeps serving until Ctrl-C, then exits 0 and keeps the data', async () => {
    const stop = new AbortController();
    const { deps, io } = demoDeps();
    const running = runDemo({ keep: true, stopSignal: stop.signal, tmpDir: tmp }, deps);
    await waitFor(() => io.stderr.text().includes('Press Ctrl-C to stop it.'));
    const stderr = io.stderr.text();
    const url = sandboxUrl(stderr);

    expect(stderr).toContain('Profile "sandbox" points at this sandbox (it is the current profile).');
    expect(stderr).toContain('loanctl --profile sandbox loan show 1');
    const config = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
    expect(config.current).toBe('sandbox');
    expect(config.profiles.sandbox).toMatchObject({ baseUrl: url, productId: 1, orgId: 1 });
    const reply = await fetch(`${url}/api/v1/loan_request?product-id=1&direction=ASC`, {
      headers: { authorization: `Bearer ${config.profiles.sandbox.apiKey}` },
    });
    expect(((await reply.json()) as { data: { loan_requests: { lender_status: string }[] } }).data).toMatchObject({
      loan_requests: [{ lender_status: 'approved' }],
    });
    expect(`${io.stdout.text()}${stderr}`).not.toContain(config.profiles.sandbox.apiKey);

    stop.abort();
    await expect(running).resolves.toBeUndefined();
    expect(await refusesConnections(url)).toBe(true);
    expect(io.stderr.text()).toMatch(/Sandbox stopped\. Its data stays in .*loanctl-demo-\w+\/data/);
    expect(readdirSync(tmp)).toHaveLength(1);
  });
});

describe('the narrated command lines', () => {
  it('quotes values as a POSIX shell needs', () => {
    expect(shellQuote('058')).toBe('058');
    expect(shellQuote('+2348031234567')).toBe('+2348031234567');
    expect(shellQuote('amaka.okafor@example.com')).toBe('amaka.okafor@example.com');
    expect(shellQuote('Amaka Okafor')).toBe('"Amaka Okafor"');
    expect(shellQuote("it's $5")).toBe(`'it'\\''s $5'`);
    expect(shellLine(['loanctl', 'loan', 'show', '1'])).toBe('loanctl loan show 1');
  });

  it('turns option names into flags, true into a bare flag', () => {
    expect(flags({ accountName: 'Amaka Okafor', code: '058', yes: true })).toEqual([
      '--account-name',
      'Amaka Okafor',
      '--code',
      '058',
      '--yes',
    ]);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

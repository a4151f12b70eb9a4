/**
 * End-to-end helpers: a real sandbox process on port 0 with a temporary data dir, and the real
 * built CLI (`bin/loanctl.js` → dist/) run with execa on this Node (vitest runs on Node 24).
 * `npm run build` must have run first (`npm test` does it before vitest).
 *
 * Each run gets a clean environment: a temporary HOME and LOANCTL_CONFIG_DIR, no colour, no CI
 * flag leaking in from the machine, and the sandbox's URL, key and product in LOANCTL_* (unless a
 * test overrides them).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { execa, type ResultPromise } from 'execa';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'bin/loanctl.js');

export interface SandboxInfo {
  url: string;
  api_key: string;
  org_id: number;
  product_id: number;
}

export interface E2eSandbox extends SandboxInfo {
  dataDir: string;
  configDir: string;
  /** The environment a CLI run gets: temp HOME/config, the sandbox in LOANCTL_*. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export function assertBuilt(): void {
  if (!existsSync(join(ROOT, 'dist/loanctl.js'))) {
    throw new Error('dist/loanctl.js is missing: run `npm run build` (npm test does) before the e2e tests.');
  }
}

/** Starts `loanctl sandbox start --json --port 0 --data-dir <tmp>` and reads its first stdout line. */
export async function startSandbox(): Promise<E2eSandbox> {
  assertBuilt();
  const base = mkdtempSync(join(tmpdir(), 'loanctl-e2e-'));
  const dataDir = join(base, 'data');
  const configDir = join(base, 'config');
  const home = join(base, 'home');
  const baseEnv = cleanEnv({ HOME: home, LOANCTL_CONFIG_DIR: configDir, XDG_DATA_HOME: join(home, '.local/share') });
  const child: ResultPromise = execa(
    process.execPath,
    // --no-profile: these tests configure the CLI through the environment, and the "no API key"
    // cases must not find the profile a sandbox would otherwise write into the same config dir.
    [BIN, 'sandbox', 'start', '--json', '--port', '0', '--data-dir', dataDir, '--no-profile'],
    { env: baseEnv, extendEnv: false, reject: false, stdin: 'ignore', stderr: 'pipe', buffer: false },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const info = await new Promise<SandboxInfo>((resolvePromise, rejectPromise) => {
    const timer = setTimeout(() => rejectPromise(new Error(`sandbox did not start in 20 s: ${stderr}`)), 20_000);
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        resolvePromise(JSON.parse(line) as SandboxInfo);
      } catch {
        rejectPromise(new Error(`sandbox printed ${JSON.stringify(line)}, not JSON; stderr: ${stderr}`));
      }
    });
    child.then(
      (result) => rejectPromise(new Error(`sandbox exited with ${result.exitCode}: ${stderr}`)),
      rejectPromise,
    );
  });
  return {
    ...info,
    dataDir,
    configDir,
    env: {
      ...baseEnv,
      LOANCTL_BASE_URL: info.url,
      LOANCTL_API_KEY: info.api_key,
      LOANCTL_PRODUCT_ID: String(info.product_id),
    },
    async stop() {
      child.kill('SIGTERM');
      await Promise.race([child.catch(() => {}), new Promise((r) => setTimeout(r, 5_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** The machine's PATH and nothing else of its environment (no CI, NO_COLOR set, no LOANCTL_*). */
function cleanEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', NO_COLOR: '1', TZ: 'UTC', ...extra };
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (throws with the output when it is not). */
  json<T = unknown>(): T;
}

export interface RunOptions {
  /** Environment overrides; a value of undefined removes the variable. */
  env?: Record<string, string | undefined>;
  input?: string;
}

/** Runs the built CLI (against this sandbox, or the in-process one of ./run-cli.ts); never rejects on a non-zero exit. */
export async function run(
  sandbox: { env: Record<string, string | undefined> },
  args: string[],
  options: RunOptions = {},
): Promise<RunResult> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...sandbox.env, ...options.env })) {
    if (value !== undefined) env[name] = value;
  }
  const result = await execa(process.execPath, [BIN, ...args], {
    env,
    extendEnv: false,
    reject: false,
    input: options.input ?? '',
    timeout: 25_000,
    cwd: ROOT,
  });
  const stdout = String(result.stdout ?? '');
  const stderr = String(result.stderr ?? '');
  return {
    code: result.exitCode ?? -1,
    stdout,
    stderr,
    json<T>() {
      try {
        return JSON.parse(stdout) as T;
      } catch {
        throw new Error(`stdout is not JSON (exit ${result.exitCode}):\n${stdout}\nstderr:\n${stderr}`);
      }
    },
  };
}

/** A second organisation in the same sandbox, with its own key and product. */
export async function createOtherOrg(
  sandbox: E2eSandbox,
): Promise<{ api_key: string; org_id: number; product_id: number }> {
  const org = await run(sandbox, [
    'sandbox',
    'org',
    'create',
    '--name',
    'Other Lender',
    '--data-dir',
    sandbox.dataDir,
    '--json',
  ]);
  if (org.code !== 0) throw new Error(`org create failed: ${org.stderr}`);
  const { org_id, api_key } = org.json<{ org_id: number; api_key: string }>();
  const product = await run(sandbox, [
    'sandbox',
    'product',
    'create',
    '--org',
    String(org_id),
    '--name',
    'Other product',
    '--data-dir',
    sandbox.dataDir,
    '--json',
  ]);
  if (product.code !== 0) throw new Error(`product create failed: ${product.stderr}`);
  return { api_key, org_id, product_id: product.json<{ product_id: number }>().product_id };
}

/** Standard borrower flags, with a unique e-mail. */
export function borrower(email: string, phone = '08012345678'): string[] {
  return ['--firstname', 'Ada', '--lastname', 'Obi', '--email', email, '--phone', phone, '--gender', 'female'];
}

/**
 * End-to-end helpers: the real built CLI (`bin/loanctl.js` → dist/) run with execa on this Node
 * (vitest runs on Node 24), where a process is the point; most command tests run in-process
 * (./run-cli.ts). `npm run build` must have run first (`npm test` does it before vitest).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'bin/loanctl.js');

/**
 * The single executable under test, when LOANCTL_TEST_BINARY names it (`npm run test:binary`,
 * which CI runs): the process tests that spawn `LOANCTL` (the pty and keyring tests,
 * test/e2e/binary.test.ts) then run it instead of the built bin, with a PATH that has no node on it.
 */
export const TEST_BINARY = process.env.LOANCTL_TEST_BINARY ? resolve(process.env.LOANCTL_TEST_BINARY) : undefined;

/** The command that starts loanctl: the single executable, or the built bin on this Node. */
export const LOANCTL: readonly [string, ...string[]] = TEST_BINARY ? [TEST_BINARY] : [process.execPath, BIN];

/** One bare PATH directory per set of tools, made on first use. */
const barePaths = new Map<string, string>();

/**
 * PATH for a spawned loanctl: this test's own, or, for the single executable, a directory that
 * holds only `tools` (symbolic links to them), so anything the binary asked of a `node` would fail.
 */
export function loanctlPath(tools: readonly string[] = []): string {
  if (!TEST_BINARY) return process.env.PATH ?? '';
  const key = tools.join(' ');
  let dir = barePaths.get(key);
  if (dir === undefined) {
    dir = mkdtempSync(join(tmpdir(), 'loanctl-bare-path-'));
    for (const tool of tools) {
      const found = execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
      symlinkSync(found, join(dir, tool));
    }
    barePaths.set(key, dir);
  }
  return dir;
}

export function assertBuilt(): void {
  if (TEST_BINARY) {
    if (!existsSync(TEST_BINARY)) throw new Error(`LOANCTL_TEST_BINARY: no file at ${TEST_BINARY} (npm run package).`);
    return;
  }
  if (!existsSync(join(ROOT, 'dist/loanctl.mjs'))) {
    throw new Error('dist/loanctl.mjs is missing: run `npm run build` (npm test does) before the e2e tests.');
  }
}

/**
 * A throwaway home for a spawned CLI, and the environment that keeps it there: config, temporary
 * files (a demo's data dir) and nothing of the machine's own settings. `remove()` deletes it.
 */
export function spawnHome(prefix: string): { home: string; env: Record<string, string>; remove: () => void } {
  const home = mkdtempSync(join(tmpdir(), prefix));
  return {
    home,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      LOANCTL_CONFIG_DIR: join(home, 'config'),
      TMPDIR: home,
      NO_COLOR: '1',
      TZ: 'UTC',
    },
    remove: () => rmSync(home, { recursive: true, force: true }),
  };
}

/**
 * `loanctl demo --keep` started in `env`, returned once it serves (it has said how to stop it);
 * `stderr()` is all it has written so far. Stop it with SIGINT; on a timeout it is killed here.
 */
export async function keptDemo(env: Record<string, string>, timeoutMs = 30_000) {
  const child = execa(process.execPath, [BIN, 'demo', '--keep'], {
    env,
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    buffer: false,
    cwd: ROOT,
  });
  let written = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    written += chunk.toString();
  });
  child.stdout?.resume();
  const deadline = Date.now() + timeoutMs;
  while (!written.includes('Press Ctrl-C to stop it.')) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`demo --keep did not start serving; its stderr so far:\n${written}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { child, stderr: () => written };
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
    json: <T>() => parseStdout<T>(stdout, stderr, result.exitCode),
  };
}

/** stdout parsed as JSON, or an error that shows the whole run. */
export function parseStdout<T>(stdout: string, stderr: string, exitCode: number | undefined): T {
  try {
    return JSON.parse(stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON (exit ${exitCode}):\n${stdout}\nstderr:\n${stderr}`);
  }
}

/** Standard borrower flags, with a unique e-mail. */
export function borrower(email: string, phone = '08012345678'): string[] {
  return ['--firstname', 'Ada', '--lastname', 'Obi', '--email', email, '--phone', phone, '--gender', 'female'];
}

/**
 * `loan approve`'s terms as flags: 45,000 at 5 % a month over 6 months, simple interest, repaid
 * monthly; `overrides` replaces a flag's value (`{ '--rate': '20' }`) or, undefined, leaves it out.
 */
export function approvalFlags(overrides: Record<string, string | undefined> = {}): string[] {
  const terms: Record<string, string | undefined> = {
    '--approved-amount': '45000',
    '--rate': '5',
    '--tenure': '6',
    '--tenured-in': 'months',
    '--rate-type': 'simple-interest',
    '--frequency': 'monthly',
    ...overrides,
  };
  return Object.entries(terms).flatMap(([flag, value]) => (value === undefined ? [] : [flag, value]));
}

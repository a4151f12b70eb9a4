/**
 * Helpers of the hardening tests: the real built CLI run with a clean environment, and
 * the real sandbox process (`sandbox start --json --port 0 --no-profile`) that a test may SIGKILL.
 * (The scripted `node:http` server the fault tests use is in ../helpers/scripted-server.ts.)
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { execa, type ResultPromise } from 'execa';
import { runCli } from '../helpers/run-cli.js';

export const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/loanctl.js');

/** What would drive a terminal: C0/C1 controls other than a newline, and the bidirectional controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
export const TERMINAL_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** The exit codes of docs/guide.md#exit-codes. */
export const EXIT_CODES = [0, 1, 2, 3, 4, 5, 130] as const;

export function assertBuilt(): void {
  if (!existsSync(join(ROOT, 'dist/loanctl.mjs'))) {
    throw new Error('dist/loanctl.mjs is missing: run `npm run build` (npm test does) before these tests.');
  }
}

const temps: string[] = [];

/** A temporary directory, removed by `removeTemps()`. */
export function temp(prefix = 'loanctl-hardening-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

export function removeTemps(): void {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** An environment with nothing of the machine's but PATH: a temporary HOME and config dir, no colour. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const home = temp('loanctl-hardening-home-');
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    LOANCTL_CONFIG_DIR: join(home, 'config'),
    NO_COLOR: '1',
    TZ: 'UTC',
    ...extra,
  };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The built CLI on this Node; never rejects on a non-zero exit. */
export async function cli(args: string[], env: Record<string, string>, input = ''): Promise<CliResult> {
  const result = await execa(process.execPath, [BIN, ...args], {
    env,
    extendEnv: false,
    reject: false,
    input,
    timeout: 40_000,
    cwd: ROOT,
  });
  return { code: result.exitCode ?? -1, stdout: String(result.stdout ?? ''), stderr: String(result.stderr ?? '') };
}

/**
 * The same program in this process (../helpers/run-cli.ts), for tests whose point is what it
 * prints and sends rather than the process; never rejects on a non-zero exit.
 */
export async function cliInProcess(args: string[], env: Record<string, string>, input = ''): Promise<CliResult> {
  const result = await runCli(args, { env, stdin: input });
  return { code: result.exitCode, stdout: result.stdout, stderr: result.stderr };
}

/** The lines of stderr that are not retry notices (`loanctl: … retrying in …`). */
export function errorLines(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => line.trim() !== '')
    .filter((line) => !/; retrying in .* \(attempt \d+ of \d+\)$/.test(line));
}

export function retryNotices(stderr: string): string[] {
  return stderr.split('\n').filter((line) => /; retrying in .* \(attempt \d+ of \d+\)$/.test(line));
}

// ---------------------------------------------------------------------------------------------
// The real sandbox process

interface SandboxLine {
  url: string;
  api_key: string;
  org_id: number;
  product_id: number;
}

export interface SandboxProc {
  line: SandboxLine;
  child: ResultPromise;
  stderr(): string;
  /** SIGKILL, and wait until it is gone. */
  kill9(): Promise<void>;
  /** SIGTERM (a clean stop), SIGKILL after 5 s. */
  stop(): Promise<void>;
}

/**
 * `loanctl sandbox start --json --port P --data-dir D --no-profile`, once it printed its JSON line.
 * `port` 0 (the default) picks a free one; a restart passes the port of the first start, so its
 * clients find it where it was.
 */
export async function startSandbox(dataDir: string, env: Record<string, string>, port = 0): Promise<SandboxProc> {
  assertBuilt();
  const child = execa(
    process.execPath,
    [BIN, 'sandbox', 'start', '--json', '--port', String(port), '--data-dir', dataDir, '--no-profile'],
    { env, extendEnv: false, reject: false, stdin: 'ignore', buffer: false, cwd: ROOT },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const line = await new Promise<SandboxLine>((resolveLine, rejectLine) => {
    const timer = setTimeout(() => rejectLine(new Error(`the sandbox did not start in 20 s: ${stderr}`)), 20_000);
    lines.once('line', (text) => {
      clearTimeout(timer);
      try {
        resolveLine(JSON.parse(text) as SandboxLine);
      } catch {
        rejectLine(new Error(`the sandbox printed ${JSON.stringify(text)}; stderr: ${stderr}`));
      }
    });
    void child.then((result) => rejectLine(new Error(`the sandbox exited with ${result.exitCode}: ${stderr}`)));
  });
  const gone = () => child.then(() => undefined);
  return {
    line,
    child,
    stderr: () => stderr,
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await gone();
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await gone();
      clearTimeout(timer);
    },
  };
}

interface Envelope {
  status: string;
  message: string;
  data: unknown;
  data1?: unknown;
}

export interface HttpReply {
  http: number;
  json: Envelope;
}

/** One request to a sandbox over real HTTP (fetch: its own keep-alive pool). */
export async function http(
  base: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<HttpReply> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  let parsed: Envelope;
  try {
    parsed = JSON.parse(text) as Envelope;
  } catch {
    throw new Error(`${method} ${path}: HTTP ${response.status}, not JSON: ${text.slice(0, 200)}`);
  }
  return { http: response.status, json: parsed };
}

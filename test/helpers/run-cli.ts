/**
 * `runCli(argv)`: the real program (src/main.ts → commander → commands → real HTTP client) run in
 * this test process, its stdio, environment and exit code passed through deps (src/deps.ts)
 * instead of the process's. Against `cliSandbox()` — the in-process sandbox of ./sandbox.ts,
 * listening on loopback — it does what a spawned `loanctl` does, without a Node start-up per
 * command. Spawn the built bin (./cli.ts) only where a process is the point: the real bin's exit
 * code, signals, a pty, start-up, shells.
 *
 * What cannot go through deps stays the process's: the time zone (TZ; the machine's, UTC in CI)
 * and the working directory (relative paths resolve against the repository, as ./cli.ts's runs).
 * Every run checks that it left the process's own state as it found it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Env } from '../../src/basics.js';
import { createDeps } from '../../src/deps.js';
import { main } from '../../src/main.js';
import type { Prompter } from '../../src/prompts/prompter.js';
import { parseStdout } from './cli.js';
import { type FakeIo, fakeIo } from './fake-io.js';
import { type OpenSandboxOptions, openSandbox, type TestSandbox } from './sandbox.js';

export interface CliResult {
  exitCode: number;
  stdout: string;
  /** stdout as bytes, for what is not text (`-o xlsx`). */
  stdoutBytes: Buffer;
  stderr: string;
  /** stdout parsed as JSON (throws with the output when it is not). */
  json<T = unknown>(): T;
}

export interface RunCliOptions {
  /** The whole environment of the run (default: `isolatedCliEnv()`); nothing of process.env leaks in. */
  env?: Env;
  /** What stdin holds (then ends). */
  stdin?: string;
  /** stdin, stdout and stderr are a terminal (stdin then stays open): prompts are asked. */
  tty?: boolean;
  /** The CLI's clock (the sandbox keeps its own). */
  now?: () => Date;
  /** The waits between retries (e.g. none, where a test provokes many). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Answers to the prompts a terminal run asks (the prompt boundary; default: inquirer's on the fake terminal). */
  prompter?: Partial<Prompter>;
  /** Given the run's streams before it starts, to look at them while it runs (e.g. when a prompt is asked). */
  onIo?: (io: FakeIo) => void;
}

let running = 0;
let before: Record<string, string> = {};

/** Runs the real program in-process; never rejects on a non-zero exit. */
export async function runCli(argv: string[], options: RunCliOptions = {}): Promise<CliResult> {
  // `profile set` writes a new key where the profile keeps it: in-process only for a file profile.
  if (argv.includes('--api-key-stdin') && !argv.includes('--insecure-storage') && argv[1] !== 'set') {
    // The keyring's native module talks to this process's D-Bus session (a developer's real
    // keyring), which no env given here can hide: keyring runs are spawned (keyring.test.ts).
    throw new Error('runCli: an in-process profile add needs --insecure-storage; test the keyring in a process.');
  }
  const io = fakeIo({ input: options.stdin ?? '', tty: options.tty });
  options.onIo?.(io);
  // A copy: the program writes to its environment (--no-color sets NO_COLOR), as a process would to its own.
  const env = { ...(options.env ?? isolatedCliEnv()) };
  if (running++ === 0) before = processState();
  let exitCode: number;
  try {
    exitCode = await main(
      argv,
      createDeps({ io, env, now: options.now, sleep: options.sleep, prompter: scripted(options.prompter) }),
    );
  } finally {
    running--;
  }
  // Runs may overlap (a test runs several at once): the process is checked when the last one ends.
  const leaked = running === 0 ? changes(before, processState()) : [];
  if (leaked.length > 0) throw new Error(`loanctl ${argv.join(' ')} changed the test process: ${leaked.join('; ')}`);
  const stdout = io.stdout.text();
  const stderr = io.stderr.text();
  return {
    exitCode,
    stdout,
    stdoutBytes: io.stdout.bytes(),
    stderr,
    json: <T>() => parseStdout<T>(stdout, stderr, exitCode),
  };
}

/** A prompter that answers as told and fails on any prompt it was not told about. */
function scripted(answers: Partial<Prompter> | undefined): Prompter | undefined {
  if (!answers) return undefined;
  const unexpected = (kind: string) => async (message: string) => {
    throw new Error(`unexpected ${kind} prompt: ${message}`);
  };
  return {
    password: unexpected('password'),
    input: unexpected('input'),
    confirm: unexpected('confirm'),
    select: unexpected('select'),
    ...answers,
  };
}

/** What a run must leave as it was: the exit code, the environment, the working directory, signal handlers. */
function processState(): Record<string, string> {
  return {
    exitCode: String(process.exitCode),
    cwd: process.cwd(),
    env: JSON.stringify(process.env),
    SIGINT: String(process.listenerCount('SIGINT')),
    SIGTERM: String(process.listenerCount('SIGTERM')),
  };
}

function changes(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys(before)
    .filter((name) => before[name] !== after[name])
    .map((name) => `${name} was ${before[name]}, is ${after[name]}`);
}

const homes: string[] = [];

/**
 * An environment with nothing of the machine's: a temporary HOME and config dir, no colour, no CI.
 * (PATH only because a spawned run needs it; ./cli.ts's runs get the same.)
 */
export function isolatedCliEnv(extra: Env = {}): Env {
  const home = mkdtempSync(join(tmpdir(), 'loanctl-cli-home-'));
  homes.push(home);
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    LOANCTL_CONFIG_DIR: join(home, '.config/loanctl'),
    NO_COLOR: '1',
    ...extra,
  };
}

/** `base` with `overrides` applied; an override of undefined removes the variable. */
export function envWith(base: Env, overrides: Env = {}): Env {
  const env: Env = { ...base };
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

export interface CliSandbox extends TestSandbox {
  api_key: string;
  org_id: number;
  product_id: number;
  /** Its own HOME and config dir, and this sandbox in LOANCTL_BASE_URL, _API_KEY and _PRODUCT_ID. */
  env: Env;
  /** `runCli` with this sandbox's env, `env` overriding it (undefined removes a variable). */
  run(argv: string[], options?: RunCliOptions): Promise<CliResult>;
}

/** The in-process sandbox, listening on loopback, and the environment that points the CLI at it. */
export async function cliSandbox(options: Omit<OpenSandboxOptions, 'listen'> = {}): Promise<CliSandbox> {
  const sandbox = await openSandbox({ ...options, listen: true });
  const env = isolatedCliEnv({
    LOANCTL_BASE_URL: sandbox.url,
    LOANCTL_API_KEY: sandbox.org.api_key,
    LOANCTL_PRODUCT_ID: String(sandbox.org.product_id),
  });
  const close = sandbox.close;
  return Object.assign(sandbox, {
    ...sandbox.org,
    env,
    run: (argv: string[], runOptions: RunCliOptions = {}) =>
      runCli(argv, { ...runOptions, env: envWith(env, runOptions.env) }),
    close: async () => {
      await close();
      for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
    },
  });
}

/**
 * A loan request of `email` (a borrower already there) for `amount`, with bank details, and
 * submitted unless `submitted` is false: what the approval queue holds. Returns it as created.
 */
export async function seedLoanRequest(
  sandbox: CliSandbox,
  email: string,
  amount: string,
  submitted = true,
): Promise<{ id: number; reference: string }> {
  const created = await sandbox.run(['loan', 'create', '--user', email, '--amount', amount, '--purpose', 'Stock']);
  if (created.exitCode !== 0) throw new Error(`loan create: exit ${created.exitCode}: ${created.stderr}`);
  const loan = created.json<{ id: number; reference: string }>();
  if (!submitted) return loan;
  for (const argv of [
    ['loan', 'add-bank', String(loan.id), '--code', '011', '--account-name', 'Ada Obi'],
    ['loan', 'submit', String(loan.id)],
  ]) {
    const result = await sandbox.run(argv);
    if (result.exitCode !== 0)
      throw new Error(`${argv.slice(0, 2).join(' ')}: exit ${result.exitCode}: ${result.stderr}`);
  }
  return loan;
}

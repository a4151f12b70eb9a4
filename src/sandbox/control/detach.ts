/**
 * `sandbox start --detach`: the same `loanctl sandbox start` run as a detached child whose output
 * goes to `sandbox.log` in the data dir. The parent waits until the child's run file (run-file.ts)
 * has its url, then reads the demo credentials from the data dir (0600): the API key is never on
 * the child's command line (a process list shows it to every user) nor in its log.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ExitCode, LoanctlError, UsageError } from '../../errors.js';
import { makeDir } from '../../make-dir.js';
import { IS_BINARY } from '../../version.js';
import { readDemoCredentials } from '../admin.js';
import { readControlKey } from './control-key.js';
import { processAlive, type RunInfo, readRunning } from './run-file.js';

const LOG_FILE_NAME = 'sandbox.log';
/** How long `--detach` waits for the server to listen (ms). */
const START_TIMEOUT_MS = 30_000;
const POLL_MS = 50;

export interface DetachedSandbox {
  url: string;
  api_key: string;
  /** The control plane's own key (control-key.ts). */
  control_key: string;
  org_id: number;
  product_id: number;
  pid: number;
  log_file: string;
  data_dir: string;
}

export interface DetachOptions {
  dataDir: string;
  host: string;
  port: number;
  /** `--allow-host` names, passed on to the server. */
  allowHosts?: readonly string[];
  profile: boolean;
  env: Record<string, string | undefined>;
}

export function logFilePath(dataDir: string): string {
  return join(dataDir, LOG_FILE_NAME);
}

/** "One is running" for a second start on the same data dir (exit 2: pick another data dir or stop it). */
export function alreadyRunningError(dataDir: string, owner: RunInfo): UsageError {
  const where = owner.url ? `on ${owner.url}` : '(still starting)';
  return new UsageError(
    `A sandbox is already running on this data dir ${where}, pid ${owner.pid}: ${dataDir}.`,
    `Use it, stop it with \`loanctl sandbox stop --data-dir ${JSON.stringify(dataDir)}\`, or pick another --data-dir.`,
  );
}

export async function startDetached(options: DetachOptions): Promise<DetachedSandbox> {
  const { dataDir } = options;
  makeDir(dataDir, 0o700);
  const owner = readRunning(dataDir);
  if (owner) throw alreadyRunningError(dataDir, owner);

  const logFile = logFilePath(dataDir);
  const log = openSync(logFile, 'a', 0o600);
  const args = [
    // The single executable is the program itself; under Node, the script it was started with.
    ...(IS_BINARY ? [] : [...process.execArgv, process.argv[1] as string]),
    'sandbox',
    'start',
    '--detached-child',
    '--host',
    options.host,
    '--port',
    String(options.port),
    '--data-dir',
    dataDir,
    ...(options.allowHosts ?? []).flatMap((name) => ['--allow-host', name]),
    ...(options.profile ? [] : ['--no-profile']),
  ];
  const child = spawn(process.execPath, args, {
    detached: true,
    stdio: ['ignore', log, log],
    env: options.env as NodeJS.ProcessEnv,
  });
  closeSync(log);
  let exited: number | null | undefined;
  child.once('exit', (code, signal) => {
    exited = code ?? (signal ? 1 : 0);
  });
  child.unref();
  const pid = child.pid;
  if (pid === undefined) throw new LoanctlError(`Could not start the sandbox process: see ${logFile}.`, 1);

  const url = await waitUntilListening(dataDir, pid, () => exited, logFile);
  const demo = readDemoCredentials(dataDir);
  const controlKey = readControlKey(dataDir);
  if (!demo || !controlKey) {
    throw new LoanctlError(`The sandbox started but its demo credentials are missing in ${dataDir}.`, 1);
  }
  return { url, ...demo, control_key: controlKey, pid, log_file: logFile, data_dir: dataDir };
}

async function waitUntilListening(
  dataDir: string,
  pid: number,
  exitCode: () => number | null | undefined,
  logFile: string,
): Promise<string> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const code = exitCode();
    if (code !== undefined) throw startFailed(logFile, code ?? 1);
    const info = readRunning(dataDir);
    if (info?.pid === pid && info.url) return info.url;
    // Another sandbox won the data dir between our check and the child's claim: the child says so.
    await sleep(POLL_MS);
  }
  if (processAlive(pid)) process.kill(pid, 'SIGTERM');
  throw new LoanctlError(`The sandbox did not start listening within ${START_TIMEOUT_MS / 1000} s; see ${logFile}.`, 1);
}

/** The child's own error line (its last line in the log), with its exit code. */
function startFailed(logFile: string, code: number): LoanctlError {
  const lines = readFileSync(logFile, 'utf8').trimEnd().split('\n');
  const last = (lines.at(-1) ?? '').replace(/^loanctl: (error: )?/, '');
  const exit = [1, 2, 3, 4, 5].includes(code) ? (code as ExitCode) : 1;
  return new LoanctlError(
    `The sandbox did not start: ${last || `it exited with code ${code}`}`,
    exit,
    `Log: ${logFile}`,
  );
}

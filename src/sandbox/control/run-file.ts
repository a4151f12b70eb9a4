/**
 * The file in a data dir that says a sandbox serves it: `sandbox.run.json` {pid, url, host, port,
 * started_at, log_file}. `sandbox start` claims it (exclusive create) before it listens, fills in
 * the url once listening, and removes it when it stops. A file whose pid is gone (the server was
 * killed, the machine rebooted) is stale: it is removed and ignored.
 */
import { closeSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const RUN_FILE_NAME = 'sandbox.run.json';

export interface RunInfo {
  pid: number;
  started_at: string;
  /** Set once the server listens. */
  url?: string;
  host?: string;
  port?: number;
  /** Where a detached server writes its output. */
  log_file?: string;
}

function runFilePath(dataDir: string): string {
  return join(dataDir, RUN_FILE_NAME);
}

/** True while a process with this pid exists (EPERM: it exists, owned by someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readRaw(dataDir: string): RunInfo | undefined {
  let text: string;
  try {
    text = readFileSync(runFilePath(dataDir), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = JSON.parse(text) as Partial<RunInfo>;
    if (Number.isSafeInteger(parsed.pid) && (parsed.pid as number) > 0) return parsed as RunInfo;
  } catch {
    // Half-written or damaged: treated as stale below.
  }
  return { pid: 0, started_at: '' };
}

/** The sandbox serving `dataDir`, if one is alive; a stale file is removed. */
export function readRunning(dataDir: string): RunInfo | undefined {
  const info = readRaw(dataDir);
  if (info === undefined) return undefined;
  if (info.pid > 0 && processAlive(info.pid)) return info;
  rmSync(runFilePath(dataDir), { force: true });
  return undefined;
}

/**
 * Claims the data dir for this process: the file is created only if none exists (a stale one is
 * removed first). Returns the live owner instead when another sandbox serves it.
 */
export function claimRunFile(dataDir: string, info: RunInfo): RunInfo | undefined {
  for (let attempt = 0; attempt < 3; attempt++) {
    const owner = readRunning(dataDir);
    if (owner) return owner;
    try {
      const fd = openSync(runFilePath(dataDir), 'wx', 0o600);
      try {
        writeFileSync(fd, `${JSON.stringify(info)}\n`);
      } finally {
        closeSync(fd);
      }
      return undefined;
    } catch (error) {
      // Another start claimed it between our read and create: look again.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return readRunning(dataDir);
}

/** Rewrites this process's run file (atomically: a reader never sees half of it). */
export function updateRunFile(dataDir: string, info: RunInfo): void {
  const temporary = `${runFilePath(dataDir)}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(info)}\n`, { mode: 0o600 });
  renameSync(temporary, runFilePath(dataDir));
}

/** Removes the run file if it is this process's own. */
export function releaseRunFile(dataDir: string, pid = process.pid): void {
  if (readRaw(dataDir)?.pid === pid) rmSync(runFilePath(dataDir), { force: true });
}

/** What `loanctl sandbox status` prints (and `loanctl status` shows) of the sandbox on `dataDir`. */
export type SandboxState =
  | { running: false; data_dir: string }
  | {
      running: true;
      url: string | null;
      pid: number;
      data_dir: string;
      started_at: string;
      uptime_s: number;
      log_file: string | null;
    };

export function sandboxState(dataDir: string, now: Date): SandboxState {
  const info = readRunning(dataDir);
  if (!info) return { running: false, data_dir: dataDir };
  const uptimeMs = Math.max(0, now.getTime() - Date.parse(info.started_at));
  return {
    running: true,
    url: info.url ?? null,
    pid: info.pid,
    data_dir: dataDir,
    started_at: info.started_at,
    uptime_s: Math.floor(uptimeMs / 1000),
    log_file: info.log_file ?? null,
  };
}

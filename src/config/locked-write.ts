/**
 * The config file's write path: a lock file beside it (so read-modify-write by several loanctl
 * processes at once loses nobody's change), and an atomic replace (so a reader, or a crash, never
 * sees half a file).
 *
 * Why hand-written and not `proper-lockfile`: the store's API is synchronous (every command reads
 * it, `profile` verbs and `sandbox start` write it), and proper-lockfile's `lockSync` cannot wait
 * for a lock (it refuses `retries`), so using it means making every write async and loading
 * graceful-fs (which patches node:fs) with it. A lock held for the few milliseconds of one write
 * needs only `open(O_CREAT|O_EXCL)`, a short sleep between tries and stale-lock detection: about
 * sixty lines of node:fs, in the store's lazily loaded chunk, that a `--help` never loads.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { localFileError, UsageError } from '../errors.js';

/** How long a writer waits for another one before giving up: a write takes milliseconds. */
const LOCK_WAIT_MS = 10_000;
/** A lock older than this is left over from a crash even when its owner cannot be checked. */
const LOCK_STALE_MS = 30_000;

/** Runs `work` while holding `<path>.lock`; the lock is released however `work` ends. */
export function withFileLock<T>(path: string, work: () => T): T {
  const lockPath = `${path}.lock`;
  const owner = `${process.pid}@${hostname()} ${Math.random().toString(36).slice(2)}`;
  acquire(lockPath, owner);
  try {
    return work();
  } finally {
    releaseIfOwned(lockPath, owner);
  }
}

function acquire(lockPath: string, owner: string): void {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      try {
        writeSync(fd, owner);
      } catch (error) {
        // An empty lock left behind (a full disk) would hold every later writer up.
        unlinkSync(lockPath);
        throw error;
      } finally {
        closeSync(fd);
      }
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw localFileError(error, lockPath, 'the lock file');
    }
    const holder = readLock(lockPath);
    if (holder !== undefined && isStale(lockPath, holder)) {
      removeIfUnchanged(lockPath, holder);
      continue;
    }
    if (Date.now() > deadline) {
      throw new UsageError(
        `The config file is locked by another loanctl (${lockPath}, held by ${holder?.split(' ')[0] ?? 'unknown'}).`,
        'Wait for it to finish; if no loanctl is running, delete the lock file.',
      );
    }
    sleep(5 + Math.random() * 20);
  }
}

/** The lock's content, or undefined when it vanished meanwhile. */
function readLock(lockPath: string): string | undefined {
  try {
    return readFileSync(lockPath, 'utf8');
  } catch {
    return undefined;
  }
}

/** A lock whose process is gone (on this host), or that is far older than any write takes. */
function isStale(lockPath: string, holder: string): boolean {
  const match = /^(\d+)@(\S+) /.exec(holder);
  if (match && match[2] === hostname() && !processAlive(Number(match[1]))) return true;
  try {
    return Date.now() - statSync(lockPath).mtimeMs > LOCK_STALE_MS;
  } catch {
    return false;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it is only someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes a stale lock unless another writer already replaced it with a live one. */
function removeIfUnchanged(lockPath: string, holder: string): void {
  if (readLock(lockPath) !== holder) return;
  try {
    unlinkSync(lockPath);
  } catch {}
}

function releaseIfOwned(lockPath: string, owner: string): void {
  if (readLock(lockPath) !== owner) return;
  try {
    unlinkSync(lockPath);
  } catch {}
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * The text of the regular file at `path` (a symlink to one is followed), or undefined when there
 * is none. Anything else is refused at once, naming what it is: a FIFO would block the read
 * forever, a directory or a device is no state loanctl wrote. Opened without blocking, then
 * checked on the descriptor itself, so what is read is what was checked.
 */
export function readRegularFile(path: string, what: string): string | undefined {
  return readRegularBytes(path, what)?.toString('utf8');
}

/** readRegularFile's bytes, not decoded (the borrower index hashes them as they are). */
export function readRegularBytes(path: string, what: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'EISDIR') throw notAFile(path, what, 'a directory');
    throw new UsageError(`Cannot read ${what} ${path}: ${(error as Error).message}.`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw notAFile(path, what, kindOf(stat));
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

function notAFile(path: string, what: string, kind: string): UsageError {
  return new UsageError(
    `${what[0]?.toUpperCase()}${what.slice(1)} ${path} is ${kind}, not a file; loanctl did not read it.`,
    `Move it away (mv ${path} ${path}.bad) and run the command again.`,
  );
}

function kindOf(stat: import('node:fs').Stats): string {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isDirectory()) return 'a directory';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'a special file';
}

/**
 * Replaces `path` with `text` atomically: a temp file in the same directory, mode 0600 (set with
 * fchmod, as open()'s mode is filtered by the umask), flushed to disk, then renamed over `path`.
 */
export function writeFileAtomic(path: string, text: string, what = 'the file'): void {
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  let fd: number;
  try {
    fd = openSync(temp, 'wx', 0o600);
  } catch (error) {
    throw localFileError(error, path, what);
  }
  try {
    try {
      if (process.platform !== 'win32') fchmodSync(fd, 0o600);
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {}
    throw localFileError(error, path, what);
  }
  syncDir(dirname(path));
}

/** Makes the rename itself durable; not every platform can open a directory, which is fine. */
function syncDir(dir: string): void {
  if (process.platform === 'win32') return;
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {}
}

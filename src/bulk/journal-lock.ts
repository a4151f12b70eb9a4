/**
 * One run of a file at a time: a journal is taken with a lock file beside it (`….journal.lock`,
 * holding the pid of the run and when that process started), made with O_EXCL so that of two
 * runs started together exactly one gets it. Two runs of one file at once would each read the
 * journal before the other's `S` lines and could both send the same row; the second now stops
 * before anything is sent (exit 2).
 *
 * A lock whose process is gone (a run killed with kill -9, a crashed machine) is taken over: the
 * pid in it is checked with signal 0, never believed, and read without following a link (a link
 * or a FIFO in its place names no holder: stale). A pid is reused by the system: a live process
 * with that pid that started at another time than the lock says is not its holder (stale too).
 * Released when the journal is closed.
 */
import { execFileSync } from 'node:child_process';
import { constants, readFileSync } from 'node:fs';
import { open, unlink, writeFile } from 'node:fs/promises';
import { localFileError } from '../errors.js';
import { JournalUntrusted } from './journal-file.js';

/** Another run holds the journal: nothing was sent. */
class JournalBusy extends JournalUntrusted {}

/** Takes the lock of the journal at `journalPath`; resolves with the function that releases it. */
export async function lockJournal(journalPath: string): Promise<() => Promise<void>> {
  const lockPath = `${journalPath}.lock`;
  // Twice at most: the second time after removing a lock whose process is gone.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lockPath, lockText(process.pid), { flag: 'wx', mode: 0o600 });
      return () => unlink(lockPath).catch(() => {});
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        await unlink(lockPath).catch(() => {});
        throw localFileError(error, lockPath, 'the lock of the bulk journal');
      }
    }
    const holder = await holderOf(lockPath);
    if (holder !== undefined) {
      throw new JournalBusy(
        `Another loanctl (pid ${holder}) is running this file now: wait for it to finish, or stop it, then run the file again. Nothing was sent.`,
      );
    }
    await unlink(lockPath).catch(() => {});
  }
  throw new JournalBusy(`Cannot take the lock ${lockPath}: another run keeps taking it. Nothing was sent.`);
}

/** What the lock of process `pid` holds: `PID START`, START `-` where the system cannot tell it. */
export function lockText(pid: number): string {
  return `${pid} ${processStart(pid) ?? '-'}\n`;
}

/**
 * The pid of a live process other than this one named in the lock file, and started when the
 * lock says, else undefined (stale). A lock of a pid alone (no start: written where the system
 * could not tell it) is believed while that pid lives.
 */
async function holderOf(lockPath: string): Promise<number | undefined> {
  const text = await readLock(lockPath);
  const match = /^(\d{1,10})(?: (\S{1,64}))?\n?$/.exec(text);
  const pid = match ? Number(match[1]) : Number.NaN;
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || !alive(pid)) return undefined;
  const started = match?.[2];
  if (started === undefined || started === '-') return pid;
  const now = processStart(pid);
  return now === undefined || now === started ? pid : undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When process `pid` started, as one word; undefined where it is gone or the system cannot say.
 * Linux: its start in clock ticks since boot (/proc/PID/stat, field 22, after the command name,
 * which may hold spaces and parentheses); other Unix systems: `ps -o lstart=`; Windows: unknown.
 */
function processStart(pid: number): string | undefined {
  try {
    if (process.platform === 'linux') {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] || undefined;
    }
    if (process.platform === 'win32') return undefined;
    const started = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', stdio: 'pipe' });
    return started.trim().replace(/\s+/g, '_') || undefined;
  } catch {
    return undefined;
  }
}

/**
 * What the lock file says, read as the journal is (./journal-file.ts): never through a symbolic
 * link, never blocking on a FIFO, only a regular file's first bytes. Anything else reads as ''
 * (no live holder named: stale, removed and taken).
 */
async function readLock(lockPath: string): Promise<string> {
  const handle = await open(lockPath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(
    () => undefined,
  );
  if (!handle) return '';
  try {
    if (!(await handle.stat()).isFile()) return '';
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(96), 0, 96, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

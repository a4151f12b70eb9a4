/**
 * One run of a file at a time: a journal is taken with a lock file beside it (`….journal.lock`,
 * holding the pid of the run), made with O_EXCL so that of two runs started together exactly one
 * gets it. Two runs of one file at once would each read the journal before the other's `S` lines
 * and could both send the same row; the second now stops before anything is sent (exit 2).
 *
 * A lock whose process is gone (a run killed with kill -9, a crashed machine) is taken over: the
 * pid in it is checked with signal 0, never believed, and read without following a link (a link
 * or a FIFO in its place names no holder: stale). Released when the journal is closed.
 */
import { constants } from 'node:fs';
import { open, unlink, writeFile } from 'node:fs/promises';
import { JournalUntrusted } from './journal-file.js';

/** Another run holds the journal: nothing was sent. */
class JournalBusy extends JournalUntrusted {}

/** Takes the lock of the journal at `journalPath`; resolves with the function that releases it. */
export async function lockJournal(journalPath: string): Promise<() => Promise<void>> {
  const lockPath = `${journalPath}.lock`;
  // Twice at most: the second time after removing a lock whose process is gone.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lockPath, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return () => unlink(lockPath).catch(() => {});
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
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

/** The pid of a live process other than this one named in the lock file, else undefined (stale). */
async function holderOf(lockPath: string): Promise<number | undefined> {
  const text = await readLock(lockPath);
  const pid = /^(\d{1,10})\n?$/.exec(text) ? Number(text.trim()) : Number.NaN;
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
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
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(32), 0, 32, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Whether the database may have changed, from the header of its WAL index: one `pread` of the
 * `-shm` file's first 48 bytes instead of a read transaction (`PRAGMA data_version` takes and
 * drops a lock on the `-shm` file: ~2–3 µs and two system calls a request).
 *
 * Why the header is enough (SQLite's wal.c; checked against node:sqlite's SQLite 3.53):
 *   - Every commit of any connection, of this process or another, rewrites the header in the
 *     shared `-shm` file (`walIndexWriteHdr`, copy 2 then copy 1) with `iChange` and `mxFrame`
 *     moved on, before COMMIT returns. A checkpoint that restarts or truncates the WAL rewrites
 *     it too (new salts), with the same content; a checkpoint that only copies pages back does not.
 *   - A new read transaction takes its snapshot from copy 1, and SQLite itself decides that its
 *     page cache is stale by comparing that copy with the one it saw last, all 48 bytes
 *     (`walIndexReadHdr`). This is the same comparison, on the same bytes, without the lock: a
 *     read during a commit sees the bytes before it (the commit has not returned yet) or a mix
 *     (taken as a change).
 *   - The `-shm` file is shared memory that SQLite maps with MAP_SHARED; on Linux `pread` reads
 *     the very pages it writes to. So the watch is made only on Linux, only in WAL mode, and only
 *     when this process's SQLite has that same file (same inode) mapped.
 *   - The database cannot leave WAL mode (nor be opened with a private heap WAL index) while this
 *     connection is open: both need an exclusive lock, and a connection in WAL mode keeps its
 *     shared lock on the database file until it closes.
 *
 * The descriptor is never closed. POSIX record locks belong to the process and the file, not to
 * the descriptor: closing any descriptor of the `-shm` file drops every lock this process's SQLite
 * holds on it (among them the one that tells other processes the WAL index is in use), whichever
 * connection took it. So one descriptor per `-shm` file the process watches, kept until it exits.
 */
import { fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';

/** The first copy of the WAL index header (`WalIndexHdr`). */
const HEADER_BYTES = 48;

/** `dev:ino` of a `-shm` file → the descriptor this process reads it with (see above: never closed). */
const descriptors = new Map<string, number>();

export class WalIndexWatch {
  private last = Buffer.alloc(HEADER_BYTES);
  private next = Buffer.alloc(HEADER_BYTES);

  private constructor(private readonly fd: number) {}

  /**
   * A watch on the database of `sqlite` (its main file), or undefined where the header cannot be
   * trusted: not Linux, not in WAL mode, an in-memory or temporary database, or a `-shm` file
   * that is not the one this process's SQLite has mapped. Call it after the connection has read
   * the database once (SandboxDb.open does), so that SQLite has mapped the `-shm` file.
   */
  static open(sqlite: DatabaseSync): WalIndexWatch | undefined {
    if (process.platform !== 'linux') return undefined;
    const mode = sqlite.prepare('PRAGMA journal_mode').get() as { journal_mode?: string } | undefined;
    if (mode?.journal_mode !== 'wal') return undefined;
    const main = (sqlite.prepare('PRAGMA database_list').all() as { name: string; file: string }[]).find(
      (database) => database.name === 'main',
    );
    // database_list gives the file SQLite opened (symbolic links resolved): its -shm is beside it.
    if (!main?.file) return undefined;
    const shm = `${main.file}-shm`;
    try {
      const { dev, ino } = statSync(shm, { bigint: true });
      let fd = descriptors.get(`${dev}:${ino}`);
      if (fd === undefined) {
        fd = openSync(shm, 'r');
        const opened = fstatSync(fd, { bigint: true });
        descriptors.set(`${opened.dev}:${opened.ino}`, fd);
      }
      return mappedHere(fd, shm) ? new WalIndexWatch(fd) : undefined;
    } catch {
      return undefined;
    }
  }

  /** True when the header differs from the one read by the last call (always, the first time). */
  moved(): boolean {
    if (readSync(this.fd, this.next, 0, HEADER_BYTES, 0) !== HEADER_BYTES) {
      this.last.fill(0);
      return true;
    }
    if (this.next.equals(this.last)) return false;
    [this.last, this.next] = [this.next, this.last];
    return true;
  }
}

/** Whether this process has `shm` mapped shared, as the file open on `fd` (same inode). */
function mappedHere(fd: number, shm: string): boolean {
  const { ino } = fstatSync(fd, { bigint: true });
  // "start-end perms offset dev inode path": SQLite maps the -shm file read-write and shared.
  return readFileSync('/proc/self/maps', 'utf8')
    .split('\n')
    .some((line) => {
      const fields = line.split(/\s+/);
      return fields[1]?.endsWith('s') && fields[4] === String(ino) && line.endsWith(` ${shm}`);
    });
}

/**
 * The sandbox's one SQLite file: opening it (WAL, busy timeout, foreign keys), bringing its schema
 * up to date (versioned migrations under `PRAGMA user_version`), and running work in a transaction.
 * Every other statement lives in ./repos.
 */
import { closeSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { makeDir } from '../make-dir.js';
import { MIGRATIONS } from './repos/migrations.js';
import { isOpen, isTransaction } from './sqlite-state.js';

/** The database file's name inside a data dir. */
const DB_FILE_NAME = 'sandbox.db';

/**
 * How long opening the database (its migrations) and the admin commands wait for another
 * process's write lock (ms). SQLite waits by sleeping in the calling thread: fine for a short
 * command, never for the server (see `failFastOnLock`).
 */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * A LIMIT taken from the `:limit` parameter. Written as an expression on purpose: SQLite reads a
 * bare bound LIMIT while it plans, and then compiles the statement again every time `:limit` is
 * bound, which is every call. An expression is evaluated at run time instead
 * (docs/decisions/bound-limit.md).
 */
export const LIMIT_PARAM = 'LIMIT :limit + 0';

export function dbPathFor(dataDir: string): string {
  return join(dataDir, DB_FILE_NAME);
}

/** A write waiting for the next group commit (`SandboxDb.write`). */
interface QueuedWrite {
  work: () => unknown;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
}

export class SandboxDb {
  readonly sqlite: DatabaseSync;
  private depth = 0;
  private queued: QueuedWrite[] = [];

  private constructor(sqlite: DatabaseSync) {
    this.sqlite = sqlite;
  }

  /**
   * Opens (creating if needed) the database at `path` and migrates it to the latest schema.
   * `failFastOnLock`: once migrated, a statement that meets another connection's lock fails at
   * once with SQLITE_BUSY instead of sleeping, so a server's event loop never stalls (the server
   * retries such a write asynchronously: busy.ts).
   */
  static open(path: string, options: { failFastOnLock?: boolean } = {}): SandboxDb {
    if (path !== ':memory:') {
      makeDir(dirname(path), 0o700);
      // Created 0600 before SQLite opens it (its -wal and -shm files take the same mode): it holds
      // API key hashes and borrowers' data. An existing file keeps its mode.
      closeSync(openSync(path, 'a', 0o600));
    }
    const sqlite = new DatabaseSync(path, { enableForeignKeyConstraints: true, timeout: BUSY_TIMEOUT_MS });
    sqlite.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    sqlite.exec('PRAGMA journal_mode = WAL');
    sqlite.exec('PRAGMA synchronous = NORMAL');
    sqlite.exec('PRAGMA foreign_keys = ON');
    const db = new SandboxDb(sqlite);
    db.migrate();
    if (options.failFastOnLock) sqlite.exec('PRAGMA busy_timeout = 0');
    return db;
  }

  /** The schema version this database is at. */
  version(): number {
    const row = this.sqlite.prepare('PRAGMA user_version').get() as { user_version: number } | undefined;
    return row?.user_version ?? 0;
  }

  private migrate(): void {
    if (this.version() === MIGRATIONS.length) return;
    // IMMEDIATE takes the write lock first, so two processes opening a new data dir at once
    // cannot both apply a migration: the second one waits, then sees the new version.
    this.transaction(() => {
      const current = this.version();
      if (current > MIGRATIONS.length) {
        throw new Error(
          `the sandbox database is at schema version ${current}, newer than this loanctl knows (${MIGRATIONS.length}); upgrade loanctl`,
        );
      }
      for (let version = current; version < MIGRATIONS.length; version++) {
        this.sqlite.exec(MIGRATIONS[version] as string);
        this.sqlite.exec(`PRAGMA user_version = ${version + 1}`);
      }
    });
  }

  /**
   * Runs `work` in one transaction (BEGIN IMMEDIATE … COMMIT, or ROLLBACK when it throws).
   * Nested calls join the outer transaction. `work` must be synchronous: the sandbox never awaits
   * while it holds the write lock.
   */
  transaction<T>(work: () => T): T {
    if (this.depth > 0) return work();
    this.sqlite.exec('BEGIN IMMEDIATE');
    this.depth++;
    try {
      const result = work();
      if (result instanceof Promise) throw new Error('transaction work must be synchronous');
      this.sqlite.exec('COMMIT');
      return result;
    } catch (error) {
      if (isTransaction(this.sqlite)) this.sqlite.exec('ROLLBACK');
      throw error;
    } finally {
      this.depth--;
    }
  }

  /**
   * Runs `work` in a write transaction shared with every other `write` queued in the same turn of
   * the event loop, each in a savepoint of its own: a group commit. The promise settles after the
   * commit, so no reply is sent for a write that is not in the database. A work that throws rolls
   * back only its own savepoint (or, when its error rolled back the whole transaction, fails alone
   * while the others run again in a new one); when the transaction cannot start (SQLITE_BUSY: another process
   * holds the lock) or commit, every write queued with it fails with that error, nothing done.
   *
   * Why: a commit writes every page the write changed to the write-ahead log, and the pages of one
   * table and its indexes are shared by the writes of a turn; without it the POST user goal of
   * docs/performance.md is barely held (docs/decisions/group-commit.md).
   */
  write<T>(work: () => T): Promise<T> {
    return new Promise((resolve, reject) => {
      const queued = { work, resolve: resolve as (result: unknown) => void, reject };
      if (this.queued.push(queued) === 1) setImmediate(() => this.commitQueued());
    });
  }

  private commitQueued(batch: QueuedWrite[] = this.takeQueued()): void {
    const outcomes: Array<() => void> = [];
    let lostWith: QueuedWrite | undefined;
    try {
      this.transaction(() => {
        for (const queued of batch) {
          this.sqlite.exec('SAVEPOINT queued_write');
          try {
            const result = queued.work();
            this.sqlite.exec('RELEASE queued_write');
            outcomes.push(() => queued.resolve(result));
          } catch (error) {
            // Some errors (SQLITE_FULL, SQLITE_IOERR…) roll the whole transaction back: there is
            // no savepoint left to return to, and the writes before this one are gone with it.
            if (!isTransaction(this.sqlite)) {
              lostWith = queued;
              throw error;
            }
            this.sqlite.exec('ROLLBACK TO queued_write');
            this.sqlite.exec('RELEASE queued_write');
            outcomes.push(() => queued.reject(error));
          }
        }
      });
    } catch (error) {
      if (lostWith) {
        // Only the write that failed fails; the others of its batch run again without it (each
        // round drops one write, so this ends), none of them having been committed.
        lostWith.reject(error);
        const rest = batch.filter((queued) => queued !== lostWith);
        if (rest.length > 0) this.commitQueued(rest);
        return;
      }
      for (const { reject } of batch) reject(error);
      return;
    }
    for (const settle of outcomes) settle();
  }

  private takeQueued(): QueuedWrite[] {
    const batch = this.queued;
    this.queued = [];
    return batch;
  }

  /**
   * Runs read-only `work` in a read transaction of its own, so that every statement of one request
   * sees the same state. Joins an open transaction.
   */
  read<T>(work: () => T): T {
    if (isTransaction(this.sqlite)) return work();
    this.sqlite.exec('BEGIN');
    try {
      const result = work();
      if (result instanceof Promise) throw new Error('read work must be synchronous');
      return result;
    } finally {
      if (isTransaction(this.sqlite)) this.sqlite.exec('COMMIT');
    }
  }

  close(): void {
    if (!isOpen(this.sqlite)) return;
    this.sqlite.close();
  }
}

/**
 * The request log's own SQLite file, `requests.db` beside `sandbox.db` in the data dir. Its own
 * file so that logging never waits for the API's write lock, and so that `sandbox reset`,
 * snapshots and restores of the data leave it alone.
 *
 * Bounded on disk: the table keeps the newest `maxRows` entries. Pruning runs after every
 * `PRUNE_EVERY` new entries, deleting what is older in one statement; SQLite reuses the pages it
 * frees, so the file stops growing once it holds `maxRows` + `PRUNE_EVERY` entries (bodies are cut
 * to BODY_LIMIT characters: at most ~100 MB at the defaults, usually a few MB).
 */
import { closeSync, existsSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { makeDir } from '../../make-dir.js';
import { isTransaction } from '../sqlite-state.js';

export const LOG_FILE_NAME = 'requests.db';
export const DEFAULT_MAX_ROWS = 20_000;
const PRUNE_EVERY = 1_000;
/** How much the log's write-ahead file holds before it is written into the log (bytes). */
export const CHECKPOINT_BYTES = 4_096_000;
/** Request and reply bodies are logged up to this many characters. */
export const BODY_LIMIT = 2_048;

export interface LogRow {
  id: number;
  /** ISO 8601, UTC, with milliseconds: when the reply was sent (the wall clock, not the sandbox clock). */
  time: string;
  org_id: number | null;
  method: string;
  path: string;
  /** The query string as sent, without `?`; '' when none. */
  query: string;
  http: number;
  /** The envelope's status (success, error, exists, no-access); null when the reply was not an envelope. */
  status: string | null;
  /** Milliseconds from the request's arrival to its reply. */
  ms: number;
  /** For a refusal or failure: which check failed, or which fault answered. */
  why: string | null;
  request_body: string | null;
  reply_body: string | null;
  /** How the request ended: its reply was sent, or its client closed the connection first. */
  ended: Ended;
  /** The outcome the request asked for with its `Prefer` header (../prefer.ts), as it applied it. */
  prefer: string | null;
  /** `loanctl sandbox proxy`: where the request or its reply broke the contract (JSON, ../proxy/check.ts). */
  violations: string | null;
}

export const ENDED = { answered: 'answered', clientGone: 'client gone', dropped: 'dropped' } as const;
export type Ended = (typeof ENDED)[keyof typeof ENDED];

export type NewLogRow = Omit<LogRow, 'id'>;

/** Every field of an entry, in the table's order; the compiler keeps this list to LogRow's. */
export const LOG_FIELDS = Object.keys({
  id: 0,
  time: 0,
  org_id: 0,
  method: 0,
  path: 0,
  query: 0,
  http: 0,
  status: 0,
  ms: 0,
  why: 0,
  request_body: 0,
  reply_body: 0,
  ended: 0,
  prefer: 0,
  violations: 0,
} satisfies Record<keyof LogRow, 0>) as (keyof LogRow)[];

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS request_log (
    id INTEGER PRIMARY KEY,
    time TEXT NOT NULL,
    org_id INTEGER,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    query TEXT NOT NULL,
    http INTEGER NOT NULL,
    status TEXT,
    ms REAL NOT NULL,
    why TEXT,
    request_body TEXT,
    reply_body TEXT,
    ended TEXT NOT NULL DEFAULT '${ENDED.answered}',
    prefer TEXT,
    violations TEXT
  );
`;

/** Columns added after the first logs were written, with what an older entry holds for them. */
const ADDED_COLUMNS = [
  // Every entry then was answered.
  `ended TEXT NOT NULL DEFAULT '${ENDED.answered}'`,
  'prefer TEXT',
  'violations TEXT',
];

/** The table, and the columns a log written before them lacks. */
function prepareTable(db: DatabaseSync): void {
  db.exec(SCHEMA);
  const columns = db.prepare('PRAGMA table_info(request_log)').all() as Array<{ name: string }>;
  for (const column of ADDED_COLUMNS) {
    const name = column.split(' ', 1)[0];
    if (!columns.some((known) => known.name === name)) db.exec(`ALTER TABLE request_log ADD COLUMN ${column}`);
  }
}

export function logPathFor(dataDir: string): string {
  return join(dataDir, LOG_FILE_NAME);
}

/** Opens the log for writing (the server), creating it 0600 (bodies hold borrowers' data). */
export function openLogForWriting(path: string): DatabaseSync {
  makeDir(dirname(path), 0o700);
  closeSync(openSync(path, 'a', 0o600));
  // No busy wait: a request never stalls on another process's lock of the log (writer.ts drops
  // the entry instead and says so once).
  const db = new DatabaseSync(path, { timeout: 0 });
  db.exec('PRAGMA journal_mode = WAL');
  // SQLite checkpoints every 1,000 pages, so a log with larger pages (one made by hand, or by an
  // older loanctl with 64 KB pages) would keep a write-ahead file of 1,000 of them. Counted in
  // bytes instead: as much as 1,000 of SQLite's default 4 KB pages, whatever the file's page size.
  const { page_size: pageSize } = db.prepare('PRAGMA page_size').get() as { page_size: number };
  db.exec(`PRAGMA wal_autocheckpoint = ${Math.max(1, Math.round(CHECKPOINT_BYTES / pageSize))}`);
  // Losing the last entries on a power cut is fine for a log; a sync per batch is not needed.
  db.exec('PRAGMA synchronous = OFF');
  prepareTable(db);
  return db;
}

/** Opens the log for `sandbox logs`; undefined when no sandbox has logged anything in `dataDir`. */
export function openLogForReading(dataDir: string): DatabaseSync | undefined {
  const path = logPathFor(dataDir);
  if (!existsSync(path)) return undefined;
  const db = new DatabaseSync(path);
  // As a pragma: node:sqlite of Node 22.13 and 22.15 ignores the `timeout` option.
  db.exec('PRAGMA busy_timeout = 5000');
  prepareTable(db);
  return db;
}

/**
 * The columns an entry is inserted into (every field but its id), bound by position: node:sqlite
 * binds a named parameter by looking its name up in the object, ~2.5 µs a row of these 12 (7.3
 * against 4.6 µs an insert).
 */
const INSERTED = LOG_FIELDS.filter((field): field is keyof NewLogRow => field !== 'id');

/**
 * Appends entries inside one open transaction, committed by `commit()`: each entry is written as
 * it comes (SQLite copies it, so a served reply is not kept alive in memory until the next batch),
 * and the disk sees one commit a batch.
 */
export class LogAppender {
  private readonly insert: StatementSync;
  private readonly prune: StatementSync;
  private sincePrune = 0;
  /** Entries written since the last commit. */
  pending = 0;

  constructor(
    private readonly db: DatabaseSync,
    private readonly maxRows: number,
  ) {
    this.insert = db.prepare(
      `INSERT INTO request_log (${INSERTED.join(', ')}) VALUES (${INSERTED.map(() => '?').join(', ')})`,
    );
    this.prune = db.prepare('DELETE FROM request_log WHERE id <= (SELECT max(id) FROM request_log) - ?');
  }

  /** Writes `row`, opening the batch's transaction if none is open. */
  append(row: NewLogRow): void {
    if (!isTransaction(this.db)) this.db.exec('BEGIN IMMEDIATE');
    this.insert.run(...INSERTED.map((column) => row[column]));
    this.pending++;
  }

  /** True while a batch's transaction is open (a failed insert of one row leaves it open). */
  inBatch(): boolean {
    return isTransaction(this.db);
  }

  /** Prunes when due and commits the batch; when this throws, `rollback()` drops the batch. */
  commit(): void {
    if (!isTransaction(this.db)) return;
    this.sincePrune += this.pending;
    if (this.sincePrune >= Math.min(PRUNE_EVERY, this.maxRows)) {
      this.prune.run(this.maxRows);
      this.sincePrune = 0;
    }
    this.db.exec('COMMIT');
    this.pending = 0;
  }

  /** Drops the open batch (after a failed write). */
  rollback(): void {
    this.pending = 0;
    if (isTransaction(this.db)) this.db.exec('ROLLBACK');
  }
}

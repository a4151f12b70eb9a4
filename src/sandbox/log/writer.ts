/**
 * The server's side of the request log: each entry is written as its reply is sent, into a
 * transaction committed on a timer or when the batch is full, so a request never waits for the
 * disk's sync. A row that cannot be built or is refused is written as a placeholder (entry.ts);
 * a write that fails (the log's disk is full, another process holds its lock) is reported once
 * and its batch dropped: the API keeps serving.
 */
import type { DatabaseSync } from 'node:sqlite';
import { isOpen } from '../sqlite-state.js';
import { type Captured, placeholderRow, toRow } from './entry.js';
import { LogAppender } from './store.js';

export interface LogWriterOptions {
  maxRows: number;
  /** How long a written entry may wait for its commit (ms); 0: committed at once, as its reply is sent. */
  flushMs: number;
  onError: (error: unknown) => void;
}

/** A batch of this many entries is committed at once, whatever the timer. */
const BATCH_SIZE = 500;

export class RequestLogWriter {
  private timer: NodeJS.Timeout | undefined;
  private readonly appender: LogAppender;
  private reported = false;

  constructor(
    private readonly db: DatabaseSync,
    private readonly options: LogWriterOptions,
  ) {
    this.appender = new LogAppender(db, options.maxRows);
  }

  push(entry: Captured): void {
    // A connection that closes as the server stops, after the log was written out and closed.
    if (!isOpen(this.db)) return;
    const row = toRow(entry);
    this.attempt(() => {
      try {
        this.appender.append(row);
      } catch (error) {
        // SQLite refused this row alone (the batch is still open): its placeholder goes in its
        // place. Anything else (the file is locked, the disk full) drops the batch, below.
        if (!this.appender.inBatch()) throw error;
        this.appender.append(placeholderRow(entry, error));
      }
    });
    if (this.appender.pending >= BATCH_SIZE || this.options.flushMs === 0) this.flush();
    else if (!this.timer && this.appender.pending > 0) {
      this.timer = setTimeout(() => this.flush(), this.options.flushMs);
      this.timer.unref();
    }
  }

  /** Commits every entry written so far. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.attempt(() => this.appender.commit());
  }

  close(): void {
    this.flush();
    if (isOpen(this.db)) this.db.close();
  }

  /** Runs a write; a failure drops the open batch and is reported once: the API keeps serving. */
  private attempt(write: () => void): void {
    try {
      write();
    } catch (error) {
      this.appender.rollback();
      if (!this.reported) this.options.onError(error);
      this.reported = true;
    }
  }
}

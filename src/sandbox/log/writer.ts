/**
 * The server's side of the request log: entries are queued in memory while requests are served
 * and written in batches, on a timer or when the queue is full, so a request never waits for the
 * disk. A write that fails (the log's disk is full, another process holds its lock) is reported
 * once and its batch dropped: the API keeps serving.
 */
import type { DatabaseSync } from 'node:sqlite';
import { type Captured, toRow } from './entry.js';
import { LogAppender } from './store.js';

export interface LogWriterOptions {
  maxRows: number;
  /** How long an entry may wait in memory before it is written (ms); 0: at once, as its reply is sent. */
  flushMs: number;
  onError: (error: unknown) => void;
}

/** A full queue is written at once, whatever the timer. */
const BATCH_SIZE = 500;

export class RequestLogWriter {
  private queue: Captured[] = [];
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
    this.queue.push(entry);
    if (this.queue.length >= BATCH_SIZE || this.options.flushMs === 0) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.options.flushMs);
      this.timer.unref();
    }
  }

  /** Writes every queued entry now. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    try {
      this.appender.append(batch.map(toRow));
    } catch (error) {
      if (!this.reported) this.options.onError(error);
      this.reported = true;
    }
  }

  close(): void {
    this.flush();
    if (this.db.isOpen) this.db.close();
  }
}

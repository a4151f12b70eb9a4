/**
 * The bulk engine: pulls rows from a source, runs each through a task with at most `concurrency`
 * rows in flight, and hands one result per row to `write` — in input order.
 *
 * - Order: results are written in row order (1, 2, 3…) whatever order the requests finish in. A
 *   small reorder buffer holds results that finished early; it is bounded by `window` rows, past
 *   which no new row is read until the oldest is written. Memory therefore stays flat whatever
 *   the size of the file, and `write` may apply backpressure (stdout's `drain`).
 * - A row that fails (bad fields, an API error, a network error) is that row's `error` result;
 *   the other rows go on. Only a `FatalRowError` (the API rejected the key, no base URL…: every
 *   row would fail the same way) stops the run: rows not yet read are not sent, and `runBulk`
 *   throws it after writing the results of the rows already started. So does a row the source
 *   marks `stop` (the file cannot be read on from there: a line over the limit), as a UsageError.
 */
import { LoanctlError, UsageError } from '../errors.js';
import type { RawRow } from './source.js';

type RowStatus = 'success' | 'exists' | 'error';

/** What happened to a row, and what identifies the record (`email`, `user_id` where known). */
export interface RowOutcome {
  status: RowStatus;
  id?: number | undefined;
  reference?: string | undefined;
  email?: string | undefined;
  user_id?: number | undefined;
  message: string;
}

/** One line of output: the row number, then the outcome. */
export interface RowResult extends RowOutcome {
  row: number;
}

export interface BulkTask<P> {
  /** What identifies a row from its raw fields (its e-mail…), for the result of a row refused before sending. */
  keyOf?(fields: Record<string, unknown>): Partial<RowOutcome>;
  /** Checks and normalises a row's fields; throws (a LoanctlError) for a bad row, which is then not sent. */
  prepare(fields: Record<string, unknown>, row: number): P | Promise<P>;
  /** Sends a prepared row. Throws for a failure; `describeFailure` turns it into the row's message. */
  execute(prepared: P, row: number): Promise<RowOutcome>;
  /** The row's `error` result for what `execute` threw (default: the error's message). */
  describeFailure?(error: unknown, prepared: P, row: number): RowOutcome;
  /** Errors of `execute` that end the whole run instead of failing one row (e.g. the API key was rejected). */
  isFatal?(error: unknown): boolean;
}

export interface BulkCounts {
  /** Rows read from the source so far. */
  read: number;
  /** Rows done (their result is known). */
  rows: number;
  success: number;
  exists: number;
  error: number;
}

export interface BulkOptions {
  concurrency: number;
  /** Written in row order, with the row as read; awaited, so it may wait for stdout to drain. */
  write(result: RowResult, raw: RawRow): void | Promise<void>;
  /** Most rows read but not yet written (default: max(256, 16 × concurrency)). */
  window?: number;
}

export interface BulkSummary extends BulkCounts {
  elapsedMs: number;
  /** The error that stopped the run early, if one did. */
  fatal?: unknown;
}

export interface BulkRun {
  /** Live counts, for a progress bar. */
  counts: Readonly<BulkCounts>;
  done: Promise<BulkSummary>;
  /** Stops reading rows (Ctrl-C): rows in flight finish and are written; `done` carries `reason` as fatal. */
  cancel(reason: unknown): void;
}

export function runBulk<P>(rows: AsyncIterable<RawRow>, task: BulkTask<P>, options: BulkOptions): BulkRun {
  const counts: BulkCounts = { read: 0, rows: 0, success: 0, exists: 0, error: 0 };
  const window = options.window ?? Math.max(256, 16 * options.concurrency);
  const started = performance.now();
  const iterator = rows[Symbol.asyncIterator]();
  const finished = new Map<number, [RowResult, RawRow]>();
  let nextToWrite = 1;
  let read = 0;
  let exhausted = false;
  let fatal: unknown;
  let reading: Promise<unknown> = Promise.resolve();
  let flushing = false;
  let flushFailure: unknown;
  const waiting: Array<() => void> = [];

  /** Rows are read one at a time (the source is a stream), each by whichever worker is free. */
  function pull(): Promise<RawRow | undefined> {
    const next = reading.then(async () => {
      if (exhausted || fatal !== undefined || flushFailure !== undefined) return undefined;
      while (read - (nextToWrite - 1) >= window) await new Promise<void>((resolve) => waiting.push(resolve));
      if (fatal !== undefined || flushFailure !== undefined) return undefined;
      const item = await iterator.next();
      if (item.done) {
        exhausted = true;
        return undefined;
      }
      read++;
      counts.read++;
      return item.value;
    });
    reading = next.catch(() => {});
    return next;
  }

  async function handle(raw: RawRow): Promise<RowResult> {
    if (raw.stop) return stop(raw.row, new UsageError(raw.error ?? `Row ${raw.row} cannot be read.`));
    if (raw.error !== undefined || !raw.fields) {
      return { row: raw.row, status: 'error', message: `Row ${raw.row} ${raw.error ?? 'is empty'}. Not sent.` };
    }
    let prepared: P;
    try {
      prepared = await task.prepare(raw.fields, raw.row);
    } catch (error) {
      return { row: raw.row, status: 'error', ...task.keyOf?.(raw.fields), message: `${messageOf(error)} Not sent.` };
    }
    try {
      return { row: raw.row, ...(await task.execute(prepared, raw.row)) };
    } catch (error) {
      if (task.isFatal?.(error)) return stop(raw.row, error);
      const outcome = task.describeFailure?.(error, prepared, raw.row) ?? {
        status: 'error' as const,
        message: messageOf(error),
      };
      return { row: raw.row, ...outcome };
    }
  }

  /** A fatal error: this row fails with it, and no further row is read. */
  function stop(row: number, error: unknown): RowResult {
    fatal ??= error;
    wakeReaders();
    return { row, status: 'error', message: messageOf(error) };
  }

  /** Lets the readers held back by the window go on (a row was written, or the run is ending). */
  function wakeReaders(): void {
    // Most rows wake nobody: no new array for them.
    if (waiting.length > 0) for (const wake of waiting.splice(0)) wake();
  }

  async function flush(): Promise<void> {
    if (flushing) return;
    flushing = true;
    try {
      for (let done = finished.get(nextToWrite); done; done = finished.get(nextToWrite)) {
        finished.delete(nextToWrite);
        await options.write(...done);
        nextToWrite++;
        wakeReaders();
      }
    } catch (error) {
      flushFailure ??= error;
      wakeReaders();
    } finally {
      flushing = false;
    }
  }

  async function deliver(result: RowResult, raw: RawRow): Promise<void> {
    counts.rows++;
    counts[result.status]++;
    finished.set(result.row, [result, raw]);
    await flush();
  }

  async function worker(): Promise<void> {
    for (;;) {
      const raw = await pull();
      if (!raw) return;
      await deliver(await handle(raw), raw);
    }
  }

  const done = (async (): Promise<BulkSummary> => {
    const workers = Array.from({ length: options.concurrency }, () => worker());
    const settled = await Promise.allSettled(workers);
    const broken = settled.find((outcome) => outcome.status === 'rejected');
    if (broken) throw (broken as PromiseRejectedResult).reason;
    // After a fatal error no row was read, so every row read has its result and all are written.
    await flush();
    if (flushFailure !== undefined) throw flushFailure;
    if (fatal !== undefined) await iterator.return?.();
    return { ...counts, elapsedMs: performance.now() - started, ...(fatal !== undefined ? { fatal } : {}) };
  })();
  return {
    counts,
    done,
    cancel(reason) {
      fatal ??= reason;
      wakeReaders();
    },
  };
}

function messageOf(error: unknown): string {
  if (error instanceof LoanctlError) return sentence(error.message);
  return sentence(`Unexpected error: ${error instanceof Error ? error.message : String(error)}`);
}

/** `text` ending as a sentence does (a full stop added where it has no end mark). */
export function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

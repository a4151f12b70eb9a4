/**
 * What a bulk run prints: one result line per row on stdout (NDJSON, or CSV with `-o csv`), a
 * progress line on stderr when stderr is a terminal, and a summary line on stderr at the end.
 *
 * The progress line is written here rather than with cli-progress: it is one line redrawn at most
 * ten times a second (`\r` and erase-line), which needs no terminal library, and keeping a
 * dependency off the install keeps start-up and the bundle small.
 */
import type { OutputFormat, OutputStream } from '../basics.js';
import { UsageError } from '../errors.js';
import { csvRow } from '../output/csv.js';
import { drained } from '../output/drain.js';
import type { BulkCounts, BulkSummary, RowResult } from './engine.js';

const CSV_COLUMNS = ['row', 'status', 'id', 'reference', 'email', 'user_id', 'message'] as const;

/**
 * The report is a stream of results: CSV if asked for, else NDJSON (one result a line, whatever
 * else -o says). A spreadsheet is written whole at the end, so it cannot be a report.
 */
export function reportFormat(chosen: OutputFormat): 'csv' | 'ndjson' {
  if (chosen === 'xlsx') {
    throw new UsageError(
      'A bulk run reports each row as it ends, so it cannot write a spreadsheet.',
      'Use -o csv (then open that), or the default NDJSON.',
    );
  }
  return chosen === 'csv' ? 'csv' : 'ndjson';
}

export interface ResultLines {
  /** Takes one row's result (in row order); resolves at once unless stdout's buffer is full, then once it drained. */
  write(result: RowResult): Promise<void>;
  /** Writes the lines still held: before the summary, so it comes after every line. */
  flush(): Promise<void>;
}

/** Lines held past this many characters are written at once, without waiting for the turn to end. */
const HELD_AT_MOST = 64 * 1024;

/**
 * Writes result lines to stdout, waiting for `drain` when stdout's buffer is full. To a terminal
 * each line at once, as its row ends; to a pipe or a file the lines of one turn of the event loop
 * in one write at its end (`setImmediate`): stdout is synchronous there, and a write a row was a
 * system call a row (and a wake-up of the reader): the bulk share of docs/performance.md#goals.
 */
export function resultWriter(stdout: OutputStream, format: 'ndjson' | 'csv'): ResultLines {
  let header = format === 'csv';
  let held = '';
  let scheduled = false;
  let full: Promise<void> | undefined;
  const lineOf = (result: RowResult) =>
    format === 'csv' ? csvRow(CSV_COLUMNS.map((key) => result[key])) : `${JSON.stringify(result)}\n`;
  const writeHeld = () => {
    scheduled = false;
    if (held === '') return;
    const text = held;
    held = '';
    if (!stdout.write(text)) {
      full ??= drained(stdout).finally(() => {
        full = undefined;
      });
    }
  };
  return {
    async write(result) {
      if (header) {
        held += csvRow([...CSV_COLUMNS]);
        header = false;
      }
      held += lineOf(result);
      if (stdout.isTTY === true || held.length >= HELD_AT_MOST) writeHeld();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(writeHeld);
      }
      if (full) await full;
    },
    async flush() {
      writeHeld();
      if (full) await full;
    },
  };
}

/** Under --dry-run nothing is sent: only the rows that would be refused are told, on stderr. */
export function dryRunLines(stderr: OutputStream): ResultLines {
  return {
    async write(result) {
      if (result.status !== 'error') return;
      if (!stderr.write(`loanctl: row ${result.row}: ${result.message}\n`)) await drained(stderr);
    },
    async flush() {},
  };
}

/** A row's review (`loan approve --from --dry-run`), as one block: rows reviewed at once do not mix. */
export function reviewBlock(row: number, lines: readonly string[]): string {
  return `row ${row}: ${lines.join('\n  ')}\n`;
}

export interface ProgressLine {
  stop(): void;
}

/**
 * `[=========>          ] 47%  4,812/4,900 rows done  4,790 ok  2 failed  1,234 rows/s` on a
 * terminal, redrawn every 100 ms; nothing at all elsewhere. Rows done are counted of the rows read
 * so far; the percentage is the file's bytes read (known for a file, not for stdin) times the
 * share of the rows read that are done, so it reaches 100% when the last row is done, not read.
 */
export function startProgress(
  stderr: OutputStream,
  counts: Readonly<BulkCounts>,
  source: () => { read: number; total: number | undefined },
): ProgressLine {
  if (stderr.isTTY !== true) return { stop() {} };
  const started = performance.now();
  const draw = () => {
    const { read, total } = source();
    const seconds = (performance.now() - started) / 1000;
    const rate = seconds > 0 ? Math.round(counts.rows / seconds) : 0;
    const parts: string[] = [];
    if (total) {
      const share = Math.min(1, read / total) * (counts.read > 0 ? counts.rows / counts.read : 0);
      const width = 20;
      const filled = Math.round(share * width);
      parts.push(`[${'='.repeat(Math.max(0, filled - 1))}${filled > 0 ? '>' : ''}${' '.repeat(width - filled)}]`);
      parts.push(`${String(Math.floor(share * 100)).padStart(3)}%`);
    }
    parts.push(
      `${number(counts.rows)}/${number(counts.read)} rows done`,
      `${number(counts.success + counts.exists)} ok`,
    );
    if (counts.error > 0) parts.push(`${number(counts.error)} failed`);
    parts.push(`${number(rate)} rows/s`);
    stderr.write(`\r\x1b[K${parts.join('  ')}`);
  };
  const timer = setInterval(draw, 100);
  timer.unref?.();
  return {
    stop() {
      clearInterval(timer);
      stderr.write('\r\x1b[K');
    },
  };
}

/** `10000 rows: 9990 created, 8 existed, 2 failed in 12.3 s` */
export function summaryLine(summary: BulkSummary): string {
  const seconds = summary.elapsedMs / 1000;
  const time = seconds < 10 ? seconds.toFixed(2) : seconds.toFixed(1);
  return `${summary.rows} row${summary.rows === 1 ? '' : 's'}: ${summary.success} created, ${summary.exists} existed, ${summary.error} failed in ${time} s`;
}

function number(value: number): string {
  return value.toLocaleString('en-US');
}

/**
 * `--failed FILE`: every rejected row written back as it was read, in the input's own format —
 * CSV under the file's own header, or NDJSON lines — so the file can be fixed and run again.
 * A row whose outcome is unknown (sent, no answer) is not "rejected": it may exist, and running
 * the original file again looks it up (./journal.ts).
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import type { OutputStream } from '../deps.js';
import { UsageError } from '../errors.js';
import { drained } from './drain.js';
import type { RawRow, RowSource } from './source.js';

export interface FailedRows {
  write(raw: RawRow): Promise<void>;
  close(): Promise<void>;
}

/** Opens `path` for the rejected rows of `source` (exit 2 when it cannot be written). */
export async function openFailedRows(path: string, source: Pick<RowSource, 'format' | 'header'>): Promise<FailedRows> {
  const out = await openForWriting(path);
  const put = async (text: string) => {
    if (!out.write(text)) await drained(out as unknown as OutputStream);
  };
  if (source.format === 'csv' && source.header) await put(csvLine(source.header));
  return {
    async write(raw) {
      if (raw.cells) await put(csvLine(raw.cells));
      else if (raw.line !== undefined) await put(`${raw.line}\n`);
    },
    close: () => new Promise((resolve) => out.end(() => resolve())),
  };
}

async function openForWriting(path: string): Promise<WriteStream> {
  const out = createWriteStream(path);
  try {
    await new Promise<void>((resolve, reject) => {
      out.once('ready', () => resolve());
      out.once('error', reject);
    });
  } catch (error) {
    throw new UsageError(`--failed: cannot write ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  return out;
}

/**
 * A record as RFC 4180 CSV, the cells exactly as read: this file is input for loanctl, not a
 * spreadsheet export, so nothing is neutralised (that would change the data sent on the re-run).
 */
function csvLine(cells: readonly string[]): string {
  return `${cells.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(',')}\n`;
}

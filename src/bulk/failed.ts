/**
 * `--failed FILE`: every rejected row written back as it was read, in the input's own format —
 * CSV under the file's own header, or NDJSON lines — and in its own form: a byte-order mark when
 * the input began with one, and its line ends (CRLF or LF), so a file saved by Excel comes back
 * as Excel opens it (docs/guide.md#spreadsheets). The file can be fixed and run again.
 * A row whose outcome is unknown (sent, no answer) is not "rejected": it may exist, and running
 * the original file again looks it up (./journal.ts).
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { UsageError } from '../errors.js';
import { drained } from '../output/drain.js';
import type { RawRow, RowSource } from './source.js';

/** How a text file is written: what Excel's "CSV UTF-8" gives is a BOM and CRLF. */
export interface TextForm {
  bom: boolean;
  eol: '\r\n' | '\n';
}

/** The form of a file, from its beginning (at least its first line, when it has one). */
export function textFormOf(start: string): TextForm {
  const firstBreak = start.indexOf('\n');
  return { bom: start.startsWith('\uFEFF'), eol: firstBreak > 0 && start[firstBreak - 1] === '\r' ? '\r\n' : '\n' };
}

export interface FailedRows {
  write(raw: RawRow): Promise<void>;
  close(): Promise<void>;
}

/** Opens `path` for the rejected rows of `source` (exit 2 when it cannot be written). */
export async function openFailedRows(
  path: string,
  source: Pick<RowSource, 'format' | 'header' | 'form'>,
): Promise<FailedRows> {
  const out = await openForWriting(path);
  const { bom, eol } = source.form;
  const put = async (text: string) => {
    if (!out.write(text)) await drained(out);
  };
  if (bom) await put('\uFEFF');
  if (source.format === 'csv' && source.header) await put(csvLine(source.header, eol));
  return {
    async write(raw) {
      if (raw.cells) await put(csvLine(raw.cells, eol));
      else if (raw.line !== undefined) await put(`${raw.line}${eol}`);
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
function csvLine(cells: readonly string[], eol: string): string {
  return `${cells.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(',')}${eol}`;
}

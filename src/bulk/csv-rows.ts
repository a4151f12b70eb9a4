/**
 * The rows of a CSV bulk file, through csv-parse's streaming parser: RFC 4180 quoting (commas,
 * quotes and line breaks inside quoted cells), a byte-order mark, CRLF, and records pulled one at a
 * time with backpressure — the cases a split(',') gets wrong.
 *
 * The header is read first, before any row is handed out, and each of its names matched leniently
 * to the known fields (./headers.ts): a needed field no column gives, or two columns giving one
 * field, is a usage error (exit 2) before anything is sent, naming every such column at once. A
 * column that gives no field (`Notes`) is ignored — the caller names them all once — unless
 * `strict`, where it is such an error too, with the closest field. A
 * record whose number of cells differs from the header's is that row's error; a syntax error that
 * makes the rest unreadable (a quote never closed) is reported on the row where it starts.
 */
import { UsageError } from '../errors.js';
import { type Columns, headerFields } from './headers.js';
import { MAX_ROW_CHARACTERS, rowTooLong } from './limits.js';
import type { RawRow } from './source.js';

export interface CsvRows {
  /** The header as written. */
  header: string[];
  /** The columns that give no field, as written: their cells are not sent (but kept for `--failed`). */
  unknown: string[];
  rows: AsyncGenerator<RawRow>;
}

export async function openCsv(
  chunks: AsyncIterable<string>,
  columns: Columns,
  name: string,
  strict = false,
): Promise<CsvRows> {
  const { parse } = await import('csv-parse');
  const { Readable } = await import('node:stream');
  // The records parsed and not yet taken, in order. The parser's stream drops what it holds when
  // a syntax error destroys it: the records of the same chunk before the error are taken from here.
  const parsed: CsvRecord[] = [];
  const parser = parse({
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    relax_quotes: true,
    // A quote never closed would otherwise read the rest of the file into one cell.
    max_record_size: MAX_ROW_CHARACTERS,
    on_record: (cells: string[], info: { lines: number }) => {
      const record = { cells, lastLine: info.lines };
      parsed.push(record);
      // Typed as giving back what it was given (csv-parse's types allow a changed record only with `columns`).
      return record as unknown as string[];
    },
  });
  const input = Readable.from(chunks);
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  const stream = (parser as AsyncIterable<CsvRecord>)[Symbol.asyncIterator]();
  const records: AsyncIterator<CsvRecord> = {
    next: async () => {
      const next = await stream.next();
      if (!next.done) parsed.shift();
      return next;
    },
  };
  let first: IteratorResult<CsvRecord>;
  try {
    first = await records.next();
  } catch (error) {
    input.destroy();
    if ((error as { code?: string }).code === TOO_LONG) throw new UsageError(rowTooLong(name, 'the header (line 1)'));
    throw new UsageError(`${name}: the CSV header cannot be read: ${(error as Error).message}.`);
  }
  const header = first.done ? [] : first.value.cells;
  const { keys, unknown, problem } = headerFields(header, columns, strict);
  if (problem !== undefined) {
    input.destroy();
    throw new UsageError(
      `${name}: ${problem}`,
      'Rename, add or remove those columns (case, spaces, underscores and dashes do not matter); nothing was sent.',
    );
  }
  const headerEnd = first.done ? 0 : first.value.lastLine;
  return { header, unknown, rows: csvRows({ records, parsed }, keys, input, name, headerEnd) };
}

/** A record: its cells, and the line of the file it ends on. */
interface CsvRecord {
  cells: string[];
  lastLine: number;
}

const TOO_LONG = 'CSV_MAX_RECORD_SIZE';

async function* csvRows(
  source: { records: AsyncIterator<CsvRecord>; parsed: CsvRecord[] },
  keys: string[],
  input: { destroy(): void },
  name: string,
  headerEnd: number,
): AsyncGenerator<RawRow> {
  let row = 0;
  let lastLine = headerEnd;
  /** The row of a record, or undefined for a blank one. */
  const rowOf = ({ cells, lastLine: end }: CsvRecord): RawRow | undefined => {
    lastLine = end;
    if (cells.every((cell) => cell.trim() === '')) return undefined;
    row++;
    if (cells.length !== keys.length) {
      return {
        row,
        cells,
        error: `has ${cells.length} cell${cells.length === 1 ? '' : 's'}, but the header names ${keys.length}`,
      };
    }
    const fields: Record<string, unknown> = {};
    keys.forEach((key, index) => {
      if (key !== '') fields[key] = cells[index];
    });
    return { row, cells, fields };
  };
  try {
    for (let next = await source.records.next(); !next.done; next = await source.records.next()) {
      const raw = rowOf(next.value);
      if (raw) yield raw;
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (!code?.startsWith('CSV_')) throw error;
    for (const record of source.parsed.splice(0)) {
      const raw = rowOf(record);
      if (raw) yield raw;
    }
    if (code === TOO_LONG) {
      yield { row: row + 1, error: rowTooLong(name, `row ${row + 1} (from line ${lastLine + 1})`), stop: true };
      return;
    }
    yield {
      row: row + 1,
      error: `the CSV cannot be read from here on: ${(error as Error).message}; the rows after it were not read`,
    };
  } finally {
    input.destroy();
  }
}

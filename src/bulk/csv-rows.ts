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
  const parser = parse({ bom: true, skip_empty_lines: true, relax_column_count: true, relax_quotes: true });
  const input = Readable.from(chunks);
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  const records = (parser as AsyncIterable<string[]>)[Symbol.asyncIterator]();
  let first: IteratorResult<string[]>;
  try {
    first = await records.next();
  } catch (error) {
    input.destroy();
    throw new UsageError(`${name}: the CSV header cannot be read: ${(error as Error).message}.`);
  }
  const header = first.done ? [] : first.value;
  const { keys, unknown, problem } = headerFields(header, columns, strict);
  if (problem !== undefined) {
    input.destroy();
    throw new UsageError(
      `${name}: ${problem}`,
      'Rename, add or remove those columns (case, spaces, underscores and dashes do not matter); nothing was sent.',
    );
  }
  return { header, unknown, rows: csvRows(records, keys, input) };
}

async function* csvRows(
  records: AsyncIterator<string[]>,
  keys: string[],
  input: { destroy(): void },
): AsyncGenerator<RawRow> {
  let row = 0;
  try {
    for (let next = await records.next(); !next.done; next = await records.next()) {
      const cells = next.value;
      if (cells.every((cell) => cell.trim() === '')) continue;
      row++;
      if (cells.length !== keys.length) {
        yield {
          row,
          cells,
          error: `has ${cells.length} cell${cells.length === 1 ? '' : 's'}, but the header names ${keys.length}`,
        };
        continue;
      }
      const fields: Record<string, unknown> = {};
      keys.forEach((key, index) => {
        if (key !== '') fields[key] = cells[index];
      });
      yield { row, cells, fields };
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (!code?.startsWith('CSV_')) throw error;
    yield {
      row: row + 1,
      error: `the CSV cannot be read from here on: ${(error as Error).message}; the rows after it were not read`,
    };
  } finally {
    input.destroy();
  }
}

/**
 * The rows of a bulk file (`--from FILE|-`), read as a stream: NDJSON (one JSON object a line) or
 * CSV with a header row naming the fields. Nothing holds the whole file: rows are produced as the
 * engine pulls them, so reading pauses while the requests catch up.
 *
 * - Format: `--format`, else the extension (`.csv`; `.ndjson`, `.jsonl`, `.json`), else the
 *   content: a first non-blank character `{` is NDJSON, anything else CSV.
 * - Row numbers are 1-based data rows: blank lines are skipped and not counted; in CSV the header
 *   is not a row.
 * - A line that is not a JSON object, or a CSV record whose number of cells differs from the
 *   header's, becomes that row's error; the other rows go on. A CSV syntax error that makes the
 *   rest of the file unreadable (a quote never closed) is reported on the row where it starts.
 * - Field names are matched leniently to the known fields (./headers.ts: `First Name` →
 *   `firstname`). In CSV a needed field no column gives, or two columns for one field, stops the
 *   run before anything is sent (exit 2); columns that give no field are ignored (`unknownColumns`,
 *   named once by the caller), or with `strict` stop it too. In NDJSON an unknown key is left in
 *   the row's fields for the caller (rows may differ).
 * - Each row keeps what it was read from (its CSV cells, or its NDJSON line), so a rejected row can
 *   be written back as it was (`--failed`).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Readable } from 'node:stream';
import type { InputStream } from '../basics.js';
import { INEXACT_NUMBER_RULE, parseExactJson } from '../contract/exact-json.js';
import { UsageError } from '../errors.js';
import { openCsv } from './csv-rows.js';
import { type TextForm, textFormOf } from './failed.js';
import { type Columns, matchField } from './headers.js';
import { MAX_ROW_CHARACTERS, rowTooLong } from './limits.js';

export const BULK_FORMATS = ['ndjson', 'csv'] as const;
export type BulkFormat = (typeof BULK_FORMATS)[number];

/** One data row: its fields, or why it could not be read, and what it was read from. */
export interface RawRow {
  row: number;
  fields?: Record<string, unknown>;
  error?: string;
  /** NDJSON: the line as read. */
  line?: string;
  /** CSV: the record's cells as read. */
  cells?: string[];
  /** The file cannot be read on from this row (`error` says why): the run stops here. */
  stop?: true;
}

export interface RowSource {
  rows: AsyncIterable<RawRow>;
  format: BulkFormat;
  /** CSV: the header row as written (for `--failed`). */
  header?: string[];
  /** CSV: the columns of the header that give no field, as written (ignored). */
  unknownColumns?: string[];
  /** What the rows come from, for messages: the path, or `stdin`. */
  name: string;
  /** Its byte-order mark and line ends, which `--failed` keeps. */
  form: TextForm;
  /** Bytes read so far, and the file's size when known (not for stdin): for the progress bar. */
  progress(): { read: number; total: number | undefined };
}

/** `--format` as typed, checked. */
export function parseBulkFormat(raw: string | undefined): BulkFormat | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim().toLowerCase();
  const format = text === 'jsonl' ? 'ndjson' : BULK_FORMATS.find((candidate) => candidate === text);
  if (!format) throw new UsageError(`--format must be ndjson or csv (got ${JSON.stringify(raw)}).`);
  return format;
}

function formatOfPath(path: string): BulkFormat | undefined {
  const extension = extname(path).toLowerCase();
  if (extension === '.csv') return 'csv';
  if (extension === '.ndjson' || extension === '.jsonl' || extension === '.json') return 'ndjson';
  return undefined;
}

/** Opens `--from`: a path, or `-` for stdin. A file that cannot be opened is exit 2, before anything is sent. */
export async function openRowSource(
  from: string,
  options: {
    format?: BulkFormat | undefined;
    stdin: InputStream;
    fields: readonly string[];
    /** CSV: the fields every row needs, each by any of its names; a header without one is exit 2. */
    required?: Columns['required'];
    /** CSV: a column that gives no field is exit 2, not ignored (`--strict`). */
    strict?: boolean | undefined;
  },
): Promise<RowSource> {
  let stream: Readable;
  let name: string;
  let total: number | undefined;
  let format = options.format;
  if (from === '-') {
    if (options.stdin.isTTY) {
      throw new UsageError(
        '--from -: stdin is a terminal, not a pipe.',
        'Pipe the rows in (loanctl … --from - < users.csv), or give a file: --from users.csv',
      );
    }
    stream = options.stdin;
    name = 'stdin';
  } else {
    try {
      // Open first, so a missing or unreadable file is one clear line before anything starts.
      const info = await stat(from);
      if (info.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
      total = info.size;
      const file = createReadStream(from);
      await new Promise<void>((resolve, reject) => {
        file.once('ready', () => resolve());
        file.once('error', reject);
      });
      stream = file;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === 'ENOENT' ? ': no such file' : code === 'EISDIR' ? ': it is a directory' : code ? ` (${code})` : '';
      throw new UsageError(`--from: cannot read ${from}${why}.`);
    }
    name = from;
    format ??= formatOfPath(from);
  }
  stream.setEncoding('utf8');
  let read = 0;
  const chunks = (async function* () {
    for await (const chunk of stream) {
      const text = String(chunk);
      read += Buffer.byteLength(text);
      yield text;
    }
  })();
  const { first, rest } = await peek(chunks);
  format ??= (first.trimStart()[0] ?? '{') === '{' ? 'ndjson' : 'csv';
  const all = prepend(first, rest);
  const progress = () => ({ read, total });
  const form = textFormOf(first);
  if (format === 'ndjson') return { rows: ndjsonRows(all, options.fields, name), format, name, form, progress };
  const columns = { known: options.fields, required: options.required ?? [] };
  const csv = await openCsv(all, columns, name, options.strict === true);
  return { rows: csv.rows, header: csv.header, unknownColumns: csv.unknown, format, name, form, progress };
}

/** Reads until some non-blank text (or the end), to guess the format without losing it. */
async function peek(chunks: AsyncGenerator<string>): Promise<{ first: string; rest: AsyncGenerator<string> }> {
  let first = '';
  while (first.trim() === '') {
    const next = await chunks.next();
    if (next.done) break;
    first += next.value;
  }
  return { first, rest: chunks };
}

async function* prepend(first: string, rest: AsyncIterable<string>): AsyncGenerator<string> {
  if (first !== '') yield first;
  yield* rest;
}

/** A line of a text stream, numbered from 1 in the file; `tooLong`: it passed MAX_ROW_CHARACTERS (and was not kept). */
interface Line {
  text: string;
  number: number;
  tooLong?: true;
}

/**
 * Lines of a text stream (LF or CRLF), the last one even without a final newline. A line's parts
 * are kept apart until its end, so a long line costs time in proportion to its length; one longer
 * than MAX_ROW_CHARACTERS ends the lines there, reported as too long.
 */
async function* lines(chunks: AsyncIterable<string>): AsyncGenerator<Line> {
  let parts: string[] = [];
  let length = 0;
  let number = 0;
  for await (const chunk of chunks) {
    let start = 0;
    for (let end = chunk.indexOf('\n'); ; end = chunk.indexOf('\n', start)) {
      const piece = end === -1 ? chunk.slice(start) : chunk.slice(start, end);
      length += piece.length;
      if (length > MAX_ROW_CHARACTERS + 1) {
        yield { text: '', number: number + 1, tooLong: true };
        return;
      }
      if (end === -1) {
        if (piece !== '') parts.push(piece);
        break;
      }
      const text = parts.length === 0 ? piece : parts.join('') + piece;
      parts = [];
      length = 0;
      number++;
      yield { text: text.endsWith('\r') ? text.slice(0, -1) : text, number };
      start = end + 1;
    }
  }
  if (parts.length > 0) yield { text: parts.join(''), number: number + 1 };
}

async function* ndjsonRows(
  chunks: AsyncIterable<string>,
  known: readonly string[],
  name: string,
): AsyncGenerator<RawRow> {
  const nameOf = keyNames(known);
  let row = 0;
  for await (const line of lines(chunks)) {
    if (line.tooLong) {
      yield { row: row + 1, error: rowTooLong(name, `line ${line.number}`), stop: true };
      return;
    }
    const text = row === 0 ? line.text.replace(/^\uFEFF/, '') : line.text;
    if (text.trim() === '') continue;
    row++;
    let value: unknown;
    try {
      const parsed = parseExactJson(text);
      if (!parsed.ok) {
        yield {
          row,
          line: text,
          error: `has a number that cannot be sent as written (${parsed.number}): ${INEXACT_NUMBER_RULE}`,
        };
        continue;
      }
      value = parsed.value;
    } catch (error) {
      yield { row, line: text, error: `is not valid JSON (${(error as Error).message.replace(/\.$/, '')})` };
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      yield { row, line: text, error: 'is not a JSON object of fields, like {"email":"ada@example.com",…}' };
      continue;
    }
    yield { row, line: text, fields: fieldsOf(value as Record<string, unknown>, nameOf) };
  }
}

function normaliseKey(key: string): string {
  return key
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/**
 * The record with each key as the known field it names, else normalised (and then named once as
 * unknown). The result has no prototype: a key `__proto__` is a field like any other (and an
 * unknown one), never the object's prototype, whose fields would be read as the row's.
 */
function fieldsOf(record: Record<string, unknown>, nameOf: (key: string) => string): Record<string, unknown> {
  const result: Record<string, unknown> = Object.create(null);
  for (const key in record) result[nameOf(key)] = record[key];
  return result;
}

/** Rows of a file repeat the same keys: each is matched once (at most KEYS_KEPT of them are kept). */
function keyNames(known: readonly string[]): (key: string) => string {
  const names = new Map<string, string>();
  return (key) => {
    let name = names.get(key);
    if (name === undefined) {
      name = matchField(key, known) ?? normaliseKey(key);
      if (names.size < KEYS_KEPT) names.set(key, name);
    }
    return name;
  };
}

/** Enough for every column of a file and some misspelt ones; a file of ever-new keys keeps no more. */
const KEYS_KEPT = 256;

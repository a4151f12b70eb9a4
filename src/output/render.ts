/**
 * Renders what a command got to stdout in the format asked for (conventions.md, "Output"):
 * `table` on a TTY and `json` otherwise unless `-o` says; `--fields` picks columns/keys;
 * `--raw` prints the whole envelope as received. Data only: notices go to stderr.
 *
 *   await render(result.payload, { kind: 'loanRequest', envelope: result.rawBody }, deps);
 *   await renderResult(result, 'loanRequest', deps);           // the same, shorter
 */
import type { Deps, OutputFormat } from '../deps.js';
import { UsageError } from '../errors.js';
import { COLUMNS, type Column, type ResourceKind } from './columns.js';
import { csvHeader, csvRow } from './csv.js';
import { escapeControl } from './escape.js';
import { resolveOutputSettings } from './settings.js';

export type RenderDeps = Pick<Deps, 'io' | 'env' | 'globals'>;

export interface RenderOptions {
  /** Which column set a table or CSV uses; without it, columns come from the data's keys. */
  kind?: ResourceKind;
  /**
   * What `--raw` prints: the body exactly as received (a string, e.g. `result.rawBody`), or an
   * object printed as JSON. Without it, `--raw` prints the payload as JSON.
   */
  envelope?: unknown;
  /** Overrides of the global flags, for commands with a fixed format. */
  format?: OutputFormat;
  fields?: string[];
  raw?: boolean;
  /** A one-record table as a list row instead of the label/value detail view. */
  asList?: boolean;
}

/** The shape of an ApiResult this module needs (kept structural: no import of the HTTP stack). */
export interface RenderableResult {
  payload: unknown;
  rawBody: string;
}

export async function renderResult(
  result: RenderableResult,
  kind: ResourceKind | undefined,
  deps: RenderDeps,
  options: Omit<RenderOptions, 'kind' | 'envelope'> = {},
): Promise<void> {
  await render(result.payload, { ...options, kind, envelope: result.rawBody }, deps);
}

export async function render(payload: unknown, options: RenderOptions, deps: RenderDeps): Promise<void> {
  const settings = resolveOutputSettings(deps.globals, deps.env, deps.io);
  const format = options.format ?? settings.output;
  const fields = options.fields ?? settings.fields;
  const out = deps.io.stdout;

  if (options.raw ?? settings.raw) {
    const raw = options.envelope ?? payload;
    const text = typeof raw === 'string' ? raw : JSON.stringify(raw, null, 2);
    out.write(text.endsWith('\n') ? text : `${text}\n`);
    return;
  }

  const rows = Array.isArray(payload) ? payload : undefined;
  if (fields && isRecordLike(payload, rows)) checkFields(fields, rows ?? [payload], options.kind);

  switch (format) {
    case 'json': {
      const picked = fields ? mapRecords(payload, (record) => pick(record, fields)) : payload;
      out.write(`${JSON.stringify(picked ?? null, null, 2)}\n`);
      return;
    }
    case 'ndjson': {
      for (const item of rows ?? [payload]) {
        out.write(`${JSON.stringify(fields && isPlainObject(item) ? pick(item, fields) : (item ?? null))}\n`);
      }
      return;
    }
    case 'csv': {
      if (!isRecordLike(payload, rows)) {
        for (const item of rows ?? [payload]) out.write(csvRow([item]));
        return;
      }
      const records = (rows ?? [payload]) as Record<string, unknown>[];
      const columns = pickColumns(options.kind, fields, records, 'list');
      out.write(csvHeader(columns.map((column) => column.key)));
      for (const record of records) out.write(csvRow(columns.map((column) => getPath(record, column.key))));
      return;
    }
    default: {
      const table = await import('./table.js');
      if (!isRecordLike(payload, rows)) {
        const { formatCell } = await import('./format.js');
        const items = rows ?? [payload];
        for (const item of items) out.write(`${formatCell(item, undefined)}\n`);
        return;
      }
      const color = settings.color;
      const width = settings.width;
      if (rows) {
        if (rows.length === 0) {
          deps.io.stderr.write(`No ${options.kind ? COLUMNS[options.kind].noun : 'results'} found.\n`);
          return;
        }
        const records = rows as Record<string, unknown>[];
        out.write(table.listTable(pickColumns(options.kind, fields, records, 'list'), records, { color, width }));
        return;
      }
      const record = payload as Record<string, unknown>;
      out.write(
        options.asList
          ? table.listTable(pickColumns(options.kind, fields, [record], 'list'), [record], { color, width })
          : table.detailTable(pickColumns(options.kind, fields, [record], 'detail'), record, { color, width }),
      );
    }
  }
}

/**
 * A writer for lists that arrive a page at a time (`--all`): JSON, NDJSON and CSV stream each
 * page as it comes; a table waits for the end so its columns line up.
 */
export interface RowWriter {
  write(rows: readonly unknown[]): Promise<void>;
  end(): Promise<void>;
}

export function createRowWriter(
  kind: ResourceKind | undefined,
  deps: RenderDeps,
  options: RenderOptions = {},
): RowWriter {
  const settings = resolveOutputSettings(deps.globals, deps.env, deps.io);
  const format = options.format ?? settings.output;
  const fields = options.fields ?? settings.fields;
  const out = deps.io.stdout;
  const buffered: unknown[] = [];
  let started = false;
  let csvColumns: Column[] | undefined;
  let count = 0;

  return {
    async write(rows) {
      if (rows.length === 0) return;
      if (fields && !started && rows.every(isPlainObject)) checkFields(fields, rows as Record<string, unknown>[], kind);
      started = true;
      switch (format) {
        case 'json':
          for (const row of rows) {
            const value = fields && isPlainObject(row) ? pick(row, fields) : row;
            const text = JSON.stringify(value, null, 2).replace(/\n/g, '\n  ');
            out.write(`${count === 0 ? '[\n  ' : ',\n  '}${text}`);
            count++;
          }
          return;
        case 'ndjson':
          for (const row of rows)
            out.write(`${JSON.stringify(fields && isPlainObject(row) ? pick(row, fields) : row)}\n`);
          return;
        case 'csv': {
          const records = rows as Record<string, unknown>[];
          if (!csvColumns) {
            csvColumns = pickColumns(kind, fields, records, 'list');
            out.write(csvHeader(csvColumns.map((column) => column.key)));
          }
          for (const record of records)
            out.write(csvRow((csvColumns ?? []).map((column) => getPath(record, column.key))));
          return;
        }
        default:
          buffered.push(...rows);
      }
    },
    async end() {
      switch (format) {
        case 'json':
          out.write(count === 0 ? '[]\n' : '\n]\n');
          return;
        case 'csv':
          if (!csvColumns && kind) out.write(csvHeader(COLUMNS[kind].list.map((column) => column.key)));
          return;
        case 'ndjson':
          return;
        default:
          await render(buffered, { ...options, kind, format: 'table' }, deps);
      }
    },
  };
}

/** `next: --cursor 172` on stderr: how to get the next page of a list. */
export function printNextPage(deps: Pick<Deps, 'io'>, flags: string): void {
  deps.io.stderr.write(`next: ${flags}\n`);
}

// ---------------------------------------------------------------------------------------------

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An object, or a non-empty array of objects (so tables and CSV have columns). */
function isRecordLike(payload: unknown, rows: unknown[] | undefined): boolean {
  if (rows) return rows.length === 0 || rows.every(isPlainObject);
  return isPlainObject(payload);
}

function mapRecords(payload: unknown, fn: (record: Record<string, unknown>) => unknown): unknown {
  if (Array.isArray(payload)) return payload.map((item) => (isPlainObject(item) ? fn(item) : item));
  return isPlainObject(payload) ? fn(payload) : payload;
}

export function getPath(record: Record<string, unknown>, path: string): unknown {
  if (Object.hasOwn(record, path)) return record[path];
  let current: unknown = record;
  for (const part of path.split('.')) {
    if (!isPlainObject(current) || !Object.hasOwn(current, part)) return undefined;
    current = current[part];
  }
  return current;
}

/** Keeps the given fields, in that order; a dotted field keeps its nesting (`terms.rate`). */
export function pick(record: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const field of fields) {
    const value = getPath(record, field);
    if (Object.hasOwn(record, field) || !field.includes('.')) {
      result[field] = value ?? null;
      continue;
    }
    const parts = field.split('.');
    let target = result;
    for (const part of parts.slice(0, -1)) {
      if (!isPlainObject(target[part])) target[part] = {};
      target = target[part] as Record<string, unknown>;
    }
    target[parts.at(-1) as string] = value ?? null;
  }
  return result;
}

/** The field names `--fields` accepts here: the columns, the records' keys, and `parent.child`. */
export function validFields(records: readonly Record<string, unknown>[], kind: ResourceKind | undefined): string[] {
  const names = new Set<string>();
  if (kind) for (const column of [...COLUMNS[kind].list, ...(COLUMNS[kind].detail ?? [])]) names.add(column.key);
  for (const record of records.slice(0, 50)) {
    for (const [key, value] of Object.entries(record)) {
      names.add(key);
      if (isPlainObject(value)) for (const inner of Object.keys(value)) names.add(`${key}.${inner}`);
    }
  }
  return [...names];
}

function checkFields(
  fields: readonly string[],
  records: readonly Record<string, unknown>[],
  kind: ResourceKind | undefined,
) {
  const valid = validFields(records, kind);
  if (records.length === 0 && !kind) return;
  const unknown = fields.filter((field) => !valid.includes(field));
  if (unknown.length > 0) {
    // The valid names include the records' keys, which the server chose: escaped like any cell.
    const shown = (names: readonly string[]) => names.map(escapeControl);
    throw new UsageError(
      `--fields: unknown field${unknown.length > 1 ? 's' : ''} ${shown(unknown)
        .map((f) => `"${f}"`)
        .join(', ')}.`,
      `Valid fields: ${shown(valid).join(', ')}.`,
    );
  }
}

function pickColumns(
  kind: ResourceKind | undefined,
  fields: readonly string[] | undefined,
  records: readonly Record<string, unknown>[],
  view: 'list' | 'detail',
): Column[] {
  const set = kind ? COLUMNS[kind] : undefined;
  const known = set ? [...set.list, ...(set.detail ?? [])] : [];
  const label = (key: string) => key.toUpperCase().replace(/[._]/g, ' ');
  if (fields) {
    return fields.map((key) => {
      const column = known.find((candidate) => candidate.key === key) ?? { key, label: label(key) };
      return view === 'list' ? { ...column, label: column.label.toUpperCase() } : column;
    });
  }
  if (set) return view === 'detail' ? (set.detail ?? set.list) : set.list;
  const keys = new Set<string>();
  for (const record of records.slice(0, 50)) {
    for (const [key, value] of Object.entries(record)) if (typeof value !== 'object' || value === null) keys.add(key);
  }
  return [...keys].map((key) => ({ key, label: label(key) }));
}

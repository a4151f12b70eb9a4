/**
 * Picking what `--fields` names out of a record, and the columns a table or CSV shows: the same
 * for every format (docs/guide.md#output-formats).
 */
import { COLUMNS, type Column, type ResourceKind } from './columns.js';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An object, or an array of objects (so tables and CSV have columns); an empty array counts. */
export function isRecordLike(payload: unknown): boolean {
  if (Array.isArray(payload)) return payload.every(isPlainObject);
  return isPlainObject(payload);
}

/** `fn` applied to the record, or to each record of a list; anything else as it is. */
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

/** `fields` picked from a record (or each of a list); without fields, the payload as it is. */
export function picked(payload: unknown, fields: readonly string[] | undefined): unknown {
  return fields ? mapRecords(payload, (record) => pick(record, fields)) : payload;
}

/**
 * The columns of a table or CSV: those `--fields` names (labelled as the kind's columns are, else
 * from the name), else the kind's own, else the records' top-level plain values.
 */
export function pickColumns(
  kind: ResourceKind | undefined,
  fields: readonly string[] | undefined,
  records: readonly Record<string, unknown>[],
  view: 'list' | 'detail',
): Column[] {
  const set = kind ? COLUMNS[kind] : undefined;
  const known = set ? [...set.list, ...(set.detail ?? []), ...(set.joined ?? [])] : [];
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

/**
 * Cell formatting for humans (tables and the dashboard's label/value rows; JSON, NDJSON and CSV
 * carry values unchanged). What each kind of value looks like is ./values.ts; this picks the kind.
 */

import type { CellFormat, Column } from './columns.js';
import { escapeControl } from './escape.js';
import { getPath, isPlainObject } from './pick.js';
import { formatBool, formatDate, formatMoney, formatNumber, formatRate, formatTimestamp } from './values.js';

// The value functions, for the callers that imported them from here.
export { formatMoney, formatTimestamp } from './values.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/**
 * One cell. `siblings` is the object the value sits in: a rate is shown with its unit, which is
 * the `tenured_in` next to it (`terms.rate` beside `terms.tenured_in`).
 */
export function formatCell(value: unknown, format: CellFormat | undefined, siblings?: Record<string, unknown>): string {
  if (value === undefined || value === null) return '';
  const kind = format ?? guessFormat(value);
  switch (kind) {
    case 'money':
      return typeof value === 'number' ? formatMoney(value) : escapeControl(String(value));
    case 'number':
      return typeof value === 'number' ? formatNumber(value) : escapeControl(String(value));
    case 'rate':
      return typeof value === 'number' ? rateCell(value, siblings) : escapeControl(String(value));
    case 'timestamp':
      return typeof value === 'string' ? escapeControl(formatTimestamp(value)) : escapeControl(String(value));
    case 'date':
      return typeof value === 'string' ? escapeControl(formatDate(value)) : escapeControl(String(value));
    case 'bool':
      return typeof value === 'boolean' ? formatBool(value) : escapeControl(String(value));
    default:
      return textOf(value);
  }
}

function rateCell(rate: number, siblings: Record<string, unknown> | undefined): string {
  const text = (key: string) => (typeof siblings?.[key] === 'string' ? (siblings[key] as string) : undefined);
  return escapeControl(formatRate({ rate, tenured_in: text('tenured_in'), rate_type: text('rate_type') }));
}

/** The cell of `column` in `record`, formatted (the value's siblings found by the column's path). */
export function columnCell(record: Record<string, unknown>, column: Column): string {
  const parent = column.key.includes('.') ? getPath(record, column.key.slice(0, column.key.lastIndexOf('.'))) : record;
  return formatCell(getPath(record, column.key), column.format, isPlainObject(parent) ? parent : undefined);
}

/**
 * The label/value rows of one record: `loan show`'s detail table and the dashboard's loan page
 * both print these, so the two show the same labels and values.
 */
export function detailRows(columns: readonly Column[], record: Record<string, unknown>): [string, string][] {
  return columns.map((column) => [escapeControl(sentence(column.label)), columnCell(record, column)]);
}

/** `CREATED` → `Created`: a list's header label read as a detail row's label. */
function sentence(label: string): string {
  return label === label.toUpperCase() && label.length > 2 ? label[0] + label.slice(1).toLowerCase() : label;
}

function guessFormat(value: unknown): CellFormat {
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'string' && ISO.test(value)) return 'timestamp';
  return 'text';
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return escapeControl(value);
  if (typeof value === 'boolean') return formatBool(value);
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) {
    return escapeControl(value.join(', '));
  }
  return escapeControl(JSON.stringify(value));
}

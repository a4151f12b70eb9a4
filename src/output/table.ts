/**
 * Human tables: borderless like `gh`, bold headers when colour is on, money right-aligned, every
 * cell passed through formatCell (money separators, `—` for unset timestamps, escaped control
 * characters). Loaded only when a table is printed.
 */
import { Chalk } from 'chalk';
import Table from 'cli-table3';
import type { Column } from './columns.js';
import { escapeControl } from './escape.js';
import { columnCell, detailRows } from './format.js';

const BORDERLESS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};

const STYLE = { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true };

export interface TableOptions {
  color: boolean;
  /** The terminal's width in columns: a wider table is narrowed to it (undefined: not a terminal, no limit). */
  width?: number | undefined;
}

/** One row per record; on a narrow terminal the longest cells are cut short with `…`. */
export function listTable(
  columns: readonly Column[],
  records: readonly Record<string, unknown>[],
  options: TableOptions,
): string {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  // A label may be a field name the server sent (a column picked by --fields, a record's key).
  const labels = columns.map((column) => escapeControl(column.label));
  const rows = records.map((record) => columns.map((column) => columnCell(record, column)));
  const colWidths = fitWidths([labels, ...rows], options.width);
  const table = new Table({
    head: labels.map((label) => chalk.bold(label)),
    chars: BORDERLESS,
    style: STYLE,
    colAligns: columns.map((column) => (column.format === 'money' || column.format === 'number' ? 'right' : 'left')),
    ...(colWidths && { colWidths }),
  });
  for (const row of rows) table.push(row);
  return finish(table.toString());
}

/** One line per field; on a narrow terminal long values wrap onto the next lines. */
export function detailTable(
  columns: readonly Column[],
  record: Record<string, unknown>,
  options: TableOptions,
): string {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const rows = detailRows(columns, record);
  const colWidths = fitWidths(rows, options.width);
  const table = new Table({ chars: BORDERLESS, style: STYLE, ...(colWidths && { colWidths, wordWrap: true }) });
  for (const [label, value] of rows) table.push([chalk.bold(label), value]);
  return finish(table.toString());
}

const GAP = BORDERLESS.middle.length;
/** A column is never narrowed below this (a header stays readable). */
const MIN_COLUMN = 6;

/**
 * Column widths that fit `width`, or undefined when the table fits as it is. The widest columns
 * give way first: every column wider than a cap is cut to it, the cap as high as the width allows.
 */
function fitWidths(rows: readonly string[][], width: number | undefined): number[] | undefined {
  const count = rows[0]?.length ?? 0;
  if (!width || count === 0) return undefined;
  const natural = Array.from({ length: count }, (_, i) => Math.max(...rows.map((row) => visibleWidth(row[i] ?? ''))));
  const budget = width - GAP * (count - 1);
  const total = (cap: number) =>
    natural.reduce((sum, w) => sum + Math.max(Math.min(w, cap), Math.min(w, MIN_COLUMN)), 0);
  if (total(Number.POSITIVE_INFINITY) <= width - GAP * (count - 1)) return undefined;
  let cap = Math.max(...natural);
  while (cap > MIN_COLUMN && total(cap) > budget) cap--;
  return natural.map((w) => Math.max(Math.min(w, cap), Math.min(w, MIN_COLUMN)));
}

/** Terminal columns a cell takes: code points, less colour codes (cells are escaped: no control characters). */
function visibleWidth(text: string): number {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ESC of a colour code
  return [...text.replace(/\x1b\[[0-9;]*m/g, '')].length;
}

function finish(text: string): string {
  return `${text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')}\n`;
}

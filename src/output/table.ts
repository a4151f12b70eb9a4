/**
 * Human tables: borderless like `gh`, bold headers when colour is on, money right-aligned, every
 * cell passed through formatCell (money separators, `—` for unset timestamps, escaped control
 * characters). Loaded only when a table is printed.
 */
import { Chalk } from 'chalk';
import Table from 'cli-table3';
import type { Column } from './columns.js';
import { escapeControl } from './escape.js';
import { formatCell } from './format.js';
import { getPath } from './render.js';

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

export function listTable(
  columns: readonly Column[],
  records: readonly Record<string, unknown>[],
  options: { color: boolean },
): string {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const table = new Table({
    // A label may be a field name the server sent (a column picked by --fields, a record's key).
    head: columns.map((column) => chalk.bold(escapeControl(column.label))),
    chars: BORDERLESS,
    style: STYLE,
    colAligns: columns.map((column) => (column.format === 'money' || column.format === 'number' ? 'right' : 'left')),
  });
  for (const record of records)
    table.push(columns.map((column) => formatCell(getPath(record, column.key), column.format)));
  return finish(table.toString());
}

export function detailTable(
  columns: readonly Column[],
  record: Record<string, unknown>,
  options: { color: boolean },
): string {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const table = new Table({ chars: BORDERLESS, style: STYLE });
  for (const column of columns) {
    table.push([
      chalk.bold(escapeControl(sentence(column.label))),
      formatCell(getPath(record, column.key), column.format),
    ]);
  }
  return finish(table.toString());
}

function sentence(label: string): string {
  return label === label.toUpperCase() && label.length > 2 ? label[0] + label.slice(1).toLowerCase() : label;
}

function finish(text: string): string {
  return `${text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')}\n`;
}

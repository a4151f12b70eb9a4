/**
 * `-o csv`: a header row, then one row a record, values as the API sent them (../csv.ts quotes
 * and neutralises formulas). A plain value is a row of its own. With `--bom` the output begins
 * with a UTF-8 byte-order mark, without which Excel reads UTF-8 as its local code page ("Ã€jÃ yÃ­").
 */
import type { Column } from '../columns.js';
import { COLUMNS } from '../columns.js';
import { csvHeader, csvRow } from '../csv.js';
import { getPath, isRecordLike, pickColumns } from '../pick.js';
import type { Formatter, View } from './formatter.js';

/** What the output begins with: the byte-order mark with `--bom`, else nothing. */
const start = (view: View) => (view.bom ? '\uFEFF' : '');

function writeRecords(view: View, records: readonly Record<string, unknown>[]): void {
  const columns = pickColumns(view.kind, view.fields, records, 'list');
  view.io.stdout.write(start(view) + csvHeader(columns.map((column) => column.key)));
  for (const record of records) view.io.stdout.write(csvRow(columns.map((column) => getPath(record, column.key))));
}

export const csv: Formatter = {
  name: 'csv',
  async value(payload, view) {
    const items = Array.isArray(payload) ? payload : [payload];
    if (!isRecordLike(payload)) {
      view.io.stdout.write(start(view) + items.map((item) => csvRow([item])).join(''));
      return;
    }
    writeRecords(view, items as Record<string, unknown>[]);
  },
  async scalar(value, name, view) {
    view.io.stdout.write(start(view) + csvHeader([name]) + csvRow([value]));
  },
  /** One header (from the first page, or the kind's columns when there is none), then rows as they come. */
  rows(view) {
    let columns: Column[] | undefined;
    return {
      async write(rows) {
        if (rows.length === 0) return;
        const records = rows as Record<string, unknown>[];
        if (!columns) {
          columns = pickColumns(view.kind, view.fields, records, 'list');
          view.io.stdout.write(start(view) + csvHeader(columns.map((column) => column.key)));
        }
        for (const record of records)
          view.io.stdout.write(csvRow((columns ?? []).map((column) => getPath(record, column.key))));
      },
      async end() {
        if (columns || !view.kind) return;
        const keys = view.fields ?? COLUMNS[view.kind].list.map((column) => column.key);
        view.io.stdout.write(start(view) + csvHeader(keys));
      },
    };
  },
  async composite(composite, view) {
    writeRecords(view, composite.rows);
  },
};

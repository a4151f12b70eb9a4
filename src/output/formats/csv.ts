/**
 * `-o csv`: a header row, then one row a record, values as the API sent them (../csv.ts quotes
 * and neutralises formulas). A plain value is a row of its own.
 */
import type { Column } from '../columns.js';
import { COLUMNS } from '../columns.js';
import { csvHeader, csvRow } from '../csv.js';
import { getPath, isRecordLike, pickColumns } from '../pick.js';
import type { Formatter, View } from './formatter.js';

function writeRecords(view: View, records: readonly Record<string, unknown>[]): void {
  const columns = pickColumns(view.kind, view.fields, records, 'list');
  view.io.stdout.write(csvHeader(columns.map((column) => column.key)));
  for (const record of records) view.io.stdout.write(csvRow(columns.map((column) => getPath(record, column.key))));
}

export const csv: Formatter = {
  name: 'csv',
  async value(payload, view) {
    const items = Array.isArray(payload) ? payload : [payload];
    if (!isRecordLike(payload)) {
      for (const item of items) view.io.stdout.write(csvRow([item]));
      return;
    }
    writeRecords(view, items as Record<string, unknown>[]);
  },
  async scalar(value, name, view) {
    view.io.stdout.write(csvHeader([name]) + csvRow([value]));
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
          view.io.stdout.write(csvHeader(columns.map((column) => column.key)));
        }
        for (const record of records)
          view.io.stdout.write(csvRow((columns ?? []).map((column) => getPath(record, column.key))));
      },
      async end() {
        if (columns || !view.kind) return;
        const keys = view.fields ?? COLUMNS[view.kind].list.map((column) => column.key);
        view.io.stdout.write(csvHeader(keys));
      },
    };
  },
  async composite(composite, view) {
    writeRecords(view, composite.rows);
  },
};

/**
 * `-o xlsx`: a spreadsheet of the records, one row a record under the same columns as CSV, each
 * cell typed as a spreadsheet reads it (docs/guide.md, "Spreadsheets"): money a number with two
 * decimals, a timestamp or date a date (an unset one empty), a yes/no a boolean, and everything
 * else, phones and references included, text, so that no spreadsheet turns `+2348012345678` or a
 * reference of digits into a number. Written by write-excel-file (a small, maintained writer whose
 * only dependency is fflate) once the last row is in: a spreadsheet is one zip file, and it holds at
 * most XLSX_MAX_ROWS rows, a limit a walk is stopped at before anything is written.
 */
import type { CellObject, SheetData } from 'write-excel-file/node';
import { isSetTimestamp, parseTimestamp } from '../../contract/vocabulary.js';
import { UsageError } from '../../errors.js';
import { COLUMNS, type Column } from '../columns.js';
import { getPath, isRecordLike, pickColumns } from '../pick.js';
import type { Formatter, View } from './formatter.js';

/** The rows a sheet holds below its header (Excel's 1,048,576 in all). */
const XLSX_MAX_ROWS = 1_048_575;

type Cell = CellObject | null;

/** A value as its column's kind puts it in a cell; null for an empty cell. */
function cellOf(value: unknown, column: Column): Cell {
  if (value === undefined || value === null || value === '') return null;
  switch (column.format) {
    case 'money':
      return typeof value === 'number' ? { value, type: Number, format: '#,##0.00' } : { value: String(value) };
    case 'number':
    case 'rate':
      return typeof value === 'number' ? { value, type: Number } : { value: String(value) };
    case 'bool':
      return typeof value === 'boolean' ? { value, type: Boolean } : { value: String(value) };
    case 'timestamp':
    case 'date': {
      if (!isSetTimestamp(value)) return null;
      const date = parseTimestamp(value) ?? (typeof value === 'string' ? new Date(`${value}T00:00:00Z`) : undefined);
      if (date === undefined || Number.isNaN(date.getTime())) return { value: String(value) };
      return { value: date, type: Date, format: column.format === 'date' ? 'yyyy-mm-dd' : 'yyyy-mm-dd hh:mm:ss' };
    }
    default:
      if (typeof value === 'number') return { value, type: Number };
      if (typeof value === 'boolean') return { value, type: Boolean };
      return { value: typeof value === 'object' ? JSON.stringify(value) : String(value), type: String };
  }
}

async function writeSheet(view: View, columns: readonly Column[], records: readonly Record<string, unknown>[]) {
  const { default: writeExcelFile } = await import('write-excel-file/node');
  const header: CellObject[] = columns.map((column) => ({ value: column.key, type: String, fontWeight: 'bold' }));
  const rows = records.map((record) => columns.map((column) => cellOf(getPath(record, column.key), column)));
  const sheet: SheetData = [header, ...rows];
  const buffer = await writeExcelFile(sheet, {
    columns: columns.map((column) => ({ width: column.format === 'timestamp' ? 20 : 16 })),
  }).toBuffer();
  view.io.stdout.write(buffer);
}

function tooMany(): never {
  throw new UsageError(
    `A spreadsheet holds at most ${XLSX_MAX_ROWS.toLocaleString('en-US')} rows.`,
    'Narrow the list (a filter, --limit), or use -o csv or -o ndjson, which have no such limit.',
  );
}

export const xlsx: Formatter = {
  name: 'xlsx',
  async value(payload, view) {
    const items = (Array.isArray(payload) ? payload : [payload]) as Record<string, unknown>[];
    if (!isRecordLike(payload)) {
      await writeSheet(
        view,
        [{ key: 'value', label: 'VALUE' }],
        items.map((value) => ({ value })),
      );
      return;
    }
    if (items.length > XLSX_MAX_ROWS) tooMany();
    await writeSheet(view, pickColumns(view.kind, view.fields, items, 'list'), items);
  },
  async scalar(value, name, view) {
    await writeSheet(view, [{ key: name, label: name }], [{ [name]: value }]);
  },
  rows(view) {
    const records: Record<string, unknown>[] = [];
    return {
      async write(rows) {
        if (records.length + rows.length > XLSX_MAX_ROWS) tooMany();
        for (const row of rows) records.push(row as Record<string, unknown>);
      },
      async end() {
        const columns =
          records.length > 0 || !view.kind
            ? pickColumns(view.kind, view.fields, records, 'list')
            : pickColumns(view.kind, view.fields ?? COLUMNS[view.kind].list.map((column) => column.key), [], 'list');
        await writeSheet(view, columns, records);
      },
    };
  },
  async composite(composite, view) {
    await writeSheet(view, pickColumns(view.kind, view.fields, composite.rows, 'list'), composite.rows);
  },
};

/**
 * `-o table` (the default on a terminal): a list as rows, one record as a label/value view, a
 * plain value as text; money, timestamps and control characters as ../format.ts shows them.
 * The table code (cli-table3, chalk) loads only when a table is printed.
 */
import { COLUMNS } from '../columns.js';
import { isRecordLike, pickColumns } from '../pick.js';
import type { Formatter, View } from './formatter.js';

async function value(payload: unknown, view: View): Promise<void> {
  const out = view.io.stdout;
  if (payload === null || payload === undefined) {
    if (view.none) view.io.stderr.write(`${view.none}\n`);
    return;
  }
  if (!isRecordLike(payload)) {
    const { formatCell } = await import('../format.js');
    for (const item of Array.isArray(payload) ? payload : [payload]) out.write(`${formatCell(item, undefined)}\n`);
    return;
  }
  const { listTable, detailTable } = await import('../table.js');
  const shown = { color: view.color, width: view.width };
  if (Array.isArray(payload)) {
    if (payload.length === 0) {
      const empty =
        view.empty === undefined ? `No ${view.kind ? COLUMNS[view.kind].noun : 'results'} found.` : view.empty;
      if (empty !== null) view.io.stderr.write(`${empty}\n`);
      return;
    }
    const records = payload as Record<string, unknown>[];
    out.write(listTable(pickColumns(view.kind, view.fields, records, 'list'), records, shown));
    return;
  }
  const record = payload as Record<string, unknown>;
  out.write(
    view.asList
      ? listTable(pickColumns(view.kind, view.fields, [record], 'list'), [record], shown)
      : detailTable(pickColumns(view.kind, view.fields, [record], 'detail'), record, shown),
  );
}

export const table: Formatter = {
  name: 'table',
  value,
  /** As is: `user exists` prints `true`, not `yes`. */
  async scalar(scalar, _name, view) {
    const { escapeControl } = await import('../escape.js');
    view.io.stdout.write(`${escapeControl(String(scalar))}\n`);
  },
  /** Waits for the last page, so that the columns line up. */
  rows(view) {
    const buffered: unknown[] = [];
    return {
      write: async (rows) => {
        buffered.push(...rows);
      },
      end: () => value(buffered, view),
    };
  },
  async composite(composite, view) {
    view.io.stdout.write(await composite.table(view));
  },
};

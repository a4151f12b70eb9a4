/** `-o ndjson`: one JSON value a line (each record of a list on its own line). */
import { isPlainObject, pick } from '../pick.js';
import type { Formatter, View } from './formatter.js';

function writeLines(view: View, items: readonly unknown[]): void {
  for (const item of items) {
    const value = view.fields && isPlainObject(item) ? pick(item, view.fields) : item;
    view.io.stdout.write(`${JSON.stringify(value ?? null)}\n`);
  }
}

export const ndjson: Formatter = {
  name: 'ndjson',
  async value(payload, view) {
    writeLines(view, Array.isArray(payload) ? payload : [payload]);
  },
  async scalar(value, _name, view) {
    writeLines(view, [value]);
  },
  rows(view) {
    return {
      write: async (rows) => writeLines(view, rows),
      end: async () => {},
    };
  },
  async composite(composite, view) {
    const { picked } = composite;
    if (view.fields && picked !== undefined) writeLines(view, Array.isArray(picked) ? picked : [picked]);
    else writeLines(view, composite.lines);
  },
};

/** `-o json`: the payload as the API sent it (`--fields` picks keys), pretty-printed. */
import { isPlainObject, pick, picked } from '../pick.js';
import type { Formatter, RowSink, View } from './formatter.js';

function write(view: View, value: unknown): void {
  view.io.stdout.write(`${JSON.stringify(value ?? null, null, 2)}\n`);
}

/** One JSON array across every page, each row written as it comes. */
function rows(view: View): RowSink {
  let count = 0;
  return {
    async write(rows) {
      for (const row of rows) {
        const value = view.fields && isPlainObject(row) ? pick(row, view.fields) : row;
        const text = JSON.stringify(value, null, 2).replace(/\n/g, '\n  ');
        view.io.stdout.write(`${count === 0 ? '[\n  ' : ',\n  '}${text}`);
        count++;
      }
    },
    async end() {
      view.io.stdout.write(count === 0 ? '[]\n' : '\n]\n');
    },
  };
}

export const json: Formatter = {
  name: 'json',
  async value(payload, view) {
    write(view, picked(payload, view.fields));
  },
  async scalar(value, _name, view) {
    write(view, value);
  },
  rows,
  async composite(composite, view) {
    const source = view.fields && composite.picked !== undefined ? composite.picked : composite.whole;
    write(view, picked(source, view.fields));
  },
};

/** `-o ndjson`: one JSON value a line (each record of a list on its own line). */
import { isPlainObject, pick } from '../pick.js';
import type { Formatter, View } from './formatter.js';

/**
 * The lines of `items` in one write, encoded straight into one buffer: a write per line would cost
 * a system call per row of a walk, and a joined string one more copy of the page in the JS heap,
 * which a walk of a million rows would pay a million times over (docs/decisions/flat-walk-memory.md).
 */
function writeLines(view: View, items: readonly unknown[]): void {
  const lines: string[] = [];
  let bytes = 0;
  for (const item of items) {
    const value = view.fields && isPlainObject(item) ? pick(item, view.fields) : item;
    const line = JSON.stringify(value ?? null);
    lines.push(line);
    bytes += Buffer.byteLength(line) + 1;
  }
  if (bytes === 0) return;
  const buffer = Buffer.allocUnsafe(bytes);
  let at = 0;
  for (const line of lines) {
    at += buffer.write(line, at);
    buffer[at++] = NEWLINE;
  }
  view.io.stdout.write(buffer);
}

const NEWLINE = 0x0a;

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

/**
 * The Output of `--jq EXPR` (./output.ts): what a command prints as JSON goes through the filter
 * (./jq.ts) instead of a format. A list walk (`--all`) is one stream: each record is one jq input,
 * a page a call. With `--raw`, the filter reads the envelope as received.
 */
import type { OutputStream } from '../basics.js';
import { compileJq } from './jq.js';
import type { Output } from './output.js';

export async function jqOutput(out: OutputStream, expression: string, raw: boolean): Promise<Output> {
  const filter = await compileJq(expression);
  const write = (input: string) => {
    const text = input === '' ? '' : filter.run(input);
    if (text !== '') out.write(text.endsWith('\n') ? text : `${text}\n`);
  };
  const value = (payload: unknown, envelope: unknown) => {
    const printed = raw ? (envelope ?? payload) : payload;
    write(typeof printed === 'string' && raw ? printed : JSON.stringify(printed ?? null));
  };
  return {
    print: async (payload, envelope) => value(payload, envelope),
    scalar: async (scalar, envelope) => value(scalar, envelope),
    composite: async (composite, envelope) => value(composite.whole, envelope),
    pages: () => ({
      page: (rows, envelope) => {
        write(raw ? JSON.stringify(envelope ?? null) : rows.map((row) => JSON.stringify(row)).join('\n'));
        // As every walk (./output.ts): a slow reader holds the walk back, nothing piles up here,
        // and nothing waiting for it holds the page (so not an async function of `rows`).
        return out.writableNeedDrain ? import('./drain.js').then(({ drained }) => drained(out)) : Promise.resolve();
      },
      end: async () => {},
    }),
  };
}

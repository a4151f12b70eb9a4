/**
 * One output path for every command: `openOutput` chooses the format once (./formats/index.ts)
 * and checks `--fields` once, against the names the command's reply can have (./field-names.ts),
 * so a command opens its Output *before* it sends anything; then it prints through it a record,
 * a list, a scalar, a stream of pages (`--all`) or a composite view. `--raw` prints each
 * envelope as received instead.
 *
 *   const output = await openOutput(deps, 'getGuarantors');     // may throw exit 2: nothing sent
 *   const result = await api.call('getGuarantors', …);
 *   await output.print(result.data, result.rawBody);
 */

import type { Env, GlobalOptions, Io, OutputFormat, OutputStream } from '../basics.js';
import type { OperationKey } from '../contract/operations.js';
import { replyPayloadShape, replyRecord } from '../contract/operations.js';
import { COLUMNS, type ResourceKind, replyKind } from './columns.js';
import { checkFields, expandPresets, joinedFieldNames, operationFieldNames, type Presets } from './field-names.js';
import type { Composite, RowSink, View } from './formats/formatter.js';
import { chooseFormat } from './formats/index.js';
import { resolveOutputSettings } from './settings.js';

/** What printing needs of a run: its streams, environment and global flags. */
export interface OutputDeps {
  io: Io;
  env: Env;
  globals: GlobalOptions;
}

/** What a command prints, when it is not an operation's reply: its column set and its field names. */
export interface OutputShape {
  kind?: ResourceKind | undefined;
  names(): Promise<readonly string[]> | readonly string[];
  /** The command sends requests once its Output is open (as an operation's does): an error says nothing was. */
  sends?: boolean;
  /** What `--fields @name` may name (none: a preset is exit 2). */
  presets?: Presets | undefined;
}

/**
 * A list whose rows the command fills with its column set's joined columns when `--fields` asks
 * for them (`loan list`'s borrower e-mail and phone): their names and the set's presets are valid.
 */
export function joinedListShape(kind: ResourceKind): OutputShape {
  return { kind, names: () => joinedFieldNames(kind), presets: COLUMNS[kind].presets, sends: true };
}

export interface OutputOptions extends Pick<View, 'asList' | 'empty' | 'none'> {
  /** The name of a plain value (`exists`, `progress`): its CSV header and its only field. */
  scalar?: string;
  /** Overrides of the global flags, for commands with a fixed format. */
  format?: OutputFormat | undefined;
  fields?: string[] | undefined;
  raw?: boolean | undefined;
}

/** Where `--all` writes each page as it arrives. */
interface PageStream {
  /**
   * Writes a page's rows (`--raw`: its envelope, which a command that refuses `--raw` leaves out);
   * resolves once stdout has taken them (after `drain` when its buffer is full).
   */
  page(rows: readonly unknown[], envelope?: unknown): Promise<void>;
  end(): Promise<void>;
}

export interface Output {
  /** `--fields` as checked, presets expanded: what the rows must carry (none under --raw or --jq). */
  readonly fields?: readonly string[] | undefined;
  /** A record, a list of them, or a plain value; `envelope` is what `--raw` prints (default: the payload). */
  print(payload: unknown, envelope?: unknown): Promise<void>;
  scalar(value: string | boolean, envelope?: unknown): Promise<void>;
  pages(): PageStream;
  composite(composite: Composite, envelope?: unknown): Promise<void>;
}

export async function openOutput(
  deps: OutputDeps,
  source: OperationKey | OutputShape,
  options: OutputOptions = {},
): Promise<Output> {
  const settings = resolveOutputSettings(deps.globals, deps.env, deps.io);
  if (settings.jq !== undefined) {
    const { jqOutput } = await import('./jq-output.js');
    return jqOutput(deps.io.stdout, settings.jq, options.raw ?? settings.raw);
  }
  const formatter = chooseFormat({ output: options.format ?? settings.output });
  const raw = options.raw ?? settings.raw;
  const given = raw ? undefined : (options.fields ?? settings.fields);
  const shape = typeof source === 'string' ? operationShape(source, options.scalar) : source;
  const nothingSent = shape.sends === true;
  const fields = given && expandPresets(given, shape.presets, { nothingSent });
  if (fields) checkFields(fields, await shape.names(), { nothingSent, presets: shape.presets });
  const { asList, empty, none } = options;
  const view: View = {
    io: deps.io,
    kind: shape.kind,
    fields,
    color: settings.color,
    bom: settings.bom,
    width: settings.width,
    asList,
    empty,
    none,
  };
  const out = deps.io.stdout;
  return {
    fields,
    print: (payload, envelope) => (raw ? writeRaw(out, envelope ?? payload) : formatter.value(payload, view)),
    scalar: (value, envelope) =>
      raw ? writeRaw(out, envelope ?? value) : formatter.scalar(value, options.scalar ?? 'value', view),
    pages: () => (raw ? rawPages(out) : formattedPages(out, formatter.rows(view))),
    composite: (composite, envelope) =>
      raw ? writeRaw(out, envelope ?? composite.whole) : formatter.composite(composite, view),
  };
}

function operationShape(key: OperationKey, scalar: string | undefined): OutputShape {
  const kind = replyRecord(replyPayloadShape(key)) === undefined ? undefined : replyKind(key);
  return { kind, names: () => operationFieldNames(key, scalar), sends: true };
}

/** The body exactly as received (a string), or an object as JSON. */
async function writeRaw(out: OutputStream, envelope: unknown): Promise<void> {
  const text = typeof envelope === 'string' ? envelope : JSON.stringify(envelope ?? null, null, 2);
  out.write(text.endsWith('\n') ? text : `${text}\n`);
}

/**
 * Backpressure: after a page, if stdout's buffer is over its high-water mark, wait for `drain`, so
 * a slow reader (a pipe into a slow consumer) holds the walk back instead of loanctl buffering the
 * whole list in memory. The callers fetch the next page while waiting here (they prefetch one
 * page ahead), so at most two pages are held at once; nothing waiting here holds the page written.
 */
async function settle(out: OutputStream): Promise<void> {
  if (!out.writableNeedDrain) return;
  const { drained } = await import('./drain.js');
  await drained(out);
}

/**
 * `--all --raw`: each page's envelope as received, one a line (NDJSON of envelopes, with status and
 * cursor). The envelope is what JSON.parse made of the reply's text, key hidden (src/http/reply.ts).
 */
function rawPages(out: OutputStream): PageStream {
  return {
    page: (_rows, envelope) => {
      out.write(`${JSON.stringify(envelope ?? null)}\n`);
      return settle(out);
    },
    end: async () => {},
  };
}

function formattedPages(out: OutputStream, sink: RowSink): PageStream {
  return {
    // Not an async function of `rows`: its frame, waiting for `drain`, would keep the page.
    page: (rows) => sink.write(rows).then(() => settle(out)),
    end: () => sink.end(),
  };
}

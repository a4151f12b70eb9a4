/**
 * One-shot printing for what is not an operation's reply (profiles, a local object) and for
 * tests: `render` opens an Output (./output.ts) for the data's kind — choosing the format, checking
 * `--fields` — and prints the payload through it.
 *
 *   await render(rows, { kind: 'profile' }, deps);
 */
import type { OutputFormat } from '../basics.js';
import type { ResourceKind } from './columns.js';
import { recordFieldNames } from './field-names.js';
import type { RowSink } from './formats/formatter.js';
import { chooseFormat } from './formats/index.js';
import { type OutputDeps, openOutput } from './output.js';
import { isPlainObject } from './pick.js';
import { resolveOutputSettings } from './settings.js';

export type RenderDeps = OutputDeps;

export interface RenderOptions {
  /** Which column set a table or CSV uses, and the fields `--fields` may name; else the data's keys. */
  kind?: ResourceKind;
  /**
   * What `--raw` prints: the body exactly as received (a string, e.g. `result.rawBody`), or an
   * object printed as JSON. Without it, `--raw` prints the payload as JSON.
   */
  envelope?: unknown;
  /** Overrides of the global flags, for commands with a fixed format. */
  format?: OutputFormat;
  fields?: string[];
  raw?: boolean;
  /** A one-record table as a list row instead of the label/value detail view. */
  asList?: boolean;
  /** What a table says on stderr for an empty list (default `No <noun> found.`; null: nothing). */
  empty?: string | null;
}

/** The shape of an ApiResult this module needs (kept structural: no import of the HTTP stack). */
export interface RenderableResult {
  payload: unknown;
  rawBody: string;
}

export async function renderResult(
  result: RenderableResult,
  kind: ResourceKind | undefined,
  deps: RenderDeps,
  options: Omit<RenderOptions, 'kind' | 'envelope'> = {},
): Promise<void> {
  await render(result.payload, { ...options, kind, envelope: result.rawBody }, deps);
}

export async function render(payload: unknown, options: RenderOptions, deps: RenderDeps): Promise<void> {
  const { kind, envelope, ...overrides } = options;
  const names = () => (kind ? recordFieldNames(kind) : keysOf(payload));
  const output = await openOutput(deps, { kind, names }, overrides);
  await output.print(payload, envelope);
}

/** The names of local data without a kind (made here, not sent by a server): its keys, and `key.inner`. */
function keysOf(payload: unknown): string[] {
  const names = new Set<string>();
  for (const record of (Array.isArray(payload) ? payload : [payload]).slice(0, 50)) {
    if (!isPlainObject(record)) continue;
    for (const [key, value] of Object.entries(record)) {
      names.add(key);
      if (isPlainObject(value)) for (const inner of Object.keys(value)) names.add(`${key}.${inner}`);
    }
  }
  return [...names];
}

/**
 * A writer for lists that arrive a page at a time (`--all`), in the chosen format: JSON, NDJSON
 * and CSV stream each page as it comes; a table waits for the end so its columns line up.
 * `--fields` is the caller's to check first (./output.ts does).
 */
export function createRowWriter(
  kind: ResourceKind | undefined,
  deps: RenderDeps,
  options: Pick<RenderOptions, 'format' | 'fields'> = {},
): RowSink {
  const settings = resolveOutputSettings(deps.globals, deps.env, deps.io);
  const formatter = chooseFormat({ output: options.format ?? settings.output });
  const { color, bom } = settings;
  return formatter.rows({ io: deps.io, kind, fields: options.fields ?? settings.fields, color, bom });
}

/** `next: --cursor 172` on stderr: how to get the next page of a list. */
export function printNextPage(deps: Pick<OutputDeps, 'io'>, flags: string): void {
  deps.io.stderr.write(`next: ${flags}\n`);
}

/** Where a command that does something prints what it did (`openOutcome`). */
export interface OutcomeOutput {
  /** `record` in the chosen format; on a table without `--fields`, the sentence `lines` instead. */
  print(record: unknown, lines: readonly string[]): Promise<void>;
}

/**
 * For a command that does something and then says what (a snapshot taken, rows removed, an
 * organisation created with its key): the one output path, `-o json|ndjson|csv` and `--fields` as
 * for any data, with `names` the fields of what it prints. Opened before the work, so that a
 * `--fields` naming none of them is exit 2 with nothing done (not an organisation made whose key,
 * shown only once, was then never printed). On a table without `--fields`, the sentence a person
 * reads stands in for a one-row table.
 */
export async function openOutcome(deps: RenderDeps, names: readonly string[]): Promise<OutcomeOutput> {
  const settings = resolveOutputSettings(deps.globals, deps.env, deps.io);
  const output = await openOutput(deps, { names: () => names });
  const sentence = settings.output === 'table' && !settings.fields && !settings.raw;
  return {
    print: async (record, lines) => {
      if (!sentence) return output.print(record);
      for (const line of lines) deps.io.stdout.write(`${line}\n`);
    },
  };
}

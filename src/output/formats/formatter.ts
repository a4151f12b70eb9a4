/**
 * The one interface every output format implements (json, ndjson, csv, table: one file each
 * here). A command's Output (../output.ts) chooses one formatter once, from `-o` (./index.ts
 * `chooseFormat`), and prints everything through it: a record, a list, a scalar, a stream of pages
 * and a composite view. `--raw` is not a format: it prints the envelope before any formatter.
 */
import type { Io, OutputFormat } from '../../basics.js';
import type { ResourceKind } from '../columns.js';

/** What a formatter needs to know about what it prints, and where it prints it. */
export interface View {
  io: Pick<Io, 'stdout' | 'stderr'>;
  /** Which column set a table or CSV uses; without it, columns come from the data's keys. */
  kind?: ResourceKind | undefined;
  /** `--fields`, already checked against the names the command's reply can have. */
  fields?: readonly string[] | undefined;
  color: boolean;
  /** CSV: begin with a UTF-8 byte-order mark (`--bom`). */
  bom?: boolean | undefined;
  /** The terminal's width, when stdout is one: tables are fitted to it (../table.ts). */
  width?: number | undefined;
  /** A one-record table as a list row instead of the label/value detail view. */
  asList?: boolean | undefined;
  /** What a table says on stderr for an empty list (default `No <noun> found.`; null: nothing). */
  empty?: string | null | undefined;
  /** What a table says on stderr for a reply without a record (default: nothing). */
  none?: string | undefined;
}

/** Rows that arrive a page at a time (`--all`). */
export interface RowSink {
  write(rows: readonly unknown[]): Promise<void>;
  end(): Promise<void>;
}

/**
 * A view made of several parts (`loan show`, `loan schedule`), given in each shape a format
 * prints: json the whole value, ndjson its lines, csv its rows, a table its own text.
 */
export interface Composite {
  whole: unknown;
  lines: readonly unknown[];
  /** What `--fields` picks from in json (ndjson: a line each, if a list), when not `whole`. */
  picked?: unknown;
  rows: readonly Record<string, unknown>[];
  table(view: View): Promise<string>;
}

export interface Formatter {
  readonly name: OutputFormat;
  /** A record, a list of records, or a plain value. */
  value(payload: unknown, view: View): Promise<void>;
  /** One value (`true`, a progress marker) that CSV heads with `name`. */
  scalar(value: string | boolean, name: string, view: View): Promise<void>;
  /** A list written as its pages arrive. */
  rows(view: View): RowSink;
  composite(composite: Composite, view: View): Promise<void>;
}

/**
 * Every record the API returns (spec section 2), described once, as one entry of
 * ./record-table.ts (what is attached to a loan request: ./attached-records.ts), written with
 * ./describe-record.ts: its fields in the API's order, each with
 * - `kind`: what it holds (below, `ValueKind`; `record`/`records` for a nested record or a list of
 *   them, `of` naming it). The zod rule follows from it (./schemas.ts), and so does the format of
 *   its table cell (src/output/columns.ts, through src/output/values.ts) and its stored column's
 *   type (`RowOf`);
 * - `optional`: the API may leave it out; `nullable`: the API may write null;
 * - `label`: its table column's label, written as a detail row reads it (`Lender status`); a list's
 *   header is the same in capitals (`LENDER STATUS`) unless `header` says otherwise;
 * - `sandbox`: how the sandbox fills it from its row (`Fill`); by default, the stored column of the
 *   same name (a boolean kept as 0/1).
 * A record shown as a table names its columns in `table`: the `list` (one row per record) and the
 * `detail` view of one record (label: value; the list when absent), as field names, `terms.rate`
 * for a nested record's field; and its plural noun. `storedOnly` lists the sandbox's columns that
 * the API does not return (a guarantor's gender).
 *
 * From this alone come the reply schemas (./schemas.ts), the sandbox's serialisers
 * (src/sandbox/serialize.ts), the table columns and `--fields` names (src/output/columns.ts,
 * src/output/field-names.ts) and the sandbox's row types (`RowOf`, src/sandbox/repos). A new reply
 * field is one line here (and, when the sandbox stores it, its migration and INSERT).
 *
 * Plain data, no zod: `--help`, completion and the reference generator read it without loading zod.
 */
import type { RECORDS } from './record-table.js';

export { RECORDS } from './record-table.js';

/** What a field holds, as the API writes it. */
export interface KindValues {
  /** A record's id: a whole number from 1 (shown as it is, without thousands separators). */
  id: number;
  /** A whole number of things (employees, locations). */
  count: number;
  number: number;
  /** An amount of money. */
  money: number;
  /** An amount of money the API writes as a whole number. */
  'whole-money': number;
  /** An interest rate, shown with the unit of its tenure (src/output/values.ts formatRate). */
  rate: number;
  text: string;
  /** A calendar date, yyyy-mm-dd (as text: the API does not promise the form). */
  date: string;
  /** An ISO 8601 date-time; the API's zero timestamp when it is not set. */
  timestamp: string;
  bool: boolean;
  /** A list of texts. */
  texts: string[];
}
export type ValueKind = keyof KindValues;

/** How the sandbox keeps each kind in its row: a boolean as 0/1, a list as JSON text. */
type StoredValues = Omit<KindValues, 'bool' | 'texts'> & { bool: number; texts: string };

/**
 * How the sandbox fills a field from its row:
 * - `column` (the default): the stored column of the same name;
 * - `or-zero`: a column that may be null, answered as the API's zero timestamp when it is;
 * - `when-set`: a column that may be null; the field is left out while it is;
 * - `never`: the sandbox never answers it (the real service may);
 * - `inline`: a nested record filled from the same row;
 * - `{ always }`: the same value in every reply;
 * - `{ copy }`: another column's value.
 */
type Fill =
  | 'column'
  | 'or-zero'
  | 'when-set'
  | 'never'
  | 'inline'
  | { readonly always: string | boolean | null | readonly [] }
  | { readonly copy: string };

interface FieldCommon {
  readonly optional?: true;
  readonly nullable?: true;
  readonly label?: string;
  readonly header?: string;
  readonly sandbox?: Fill;
}
interface ValueField extends FieldCommon {
  readonly kind: ValueKind;
}
export interface NestedField extends FieldCommon {
  readonly kind: 'record' | 'records';
  readonly of: RecordSpec;
}
export type FieldSpec = ValueField | NestedField;
export type Fields = Readonly<Record<string, FieldSpec>>;

/** A column the sandbox keeps that the API does not return. */
interface StoredColumn {
  readonly kind: ValueKind;
  readonly nullable?: true;
}

/** How a record is shown as a table. */
export interface TableSpec<Path extends string = string> {
  /** Plural noun for "no … found". */
  readonly noun: string;
  readonly list: readonly Path[];
  readonly detail?: readonly Path[];
}

export interface RecordSpec<F extends Fields = Fields> {
  readonly fields: F;
  readonly storedOnly?: Readonly<Record<string, StoredColumn>>;
  readonly table?: TableSpec;
}

/** A record the API returns; its operations name it in their replies (./operations.ts). */
export type RecordName = keyof typeof RECORDS;

/** The fields a table may show: a labelled field, or `terms.rate` for a labelled field of a nested record. */
export type ColumnPath<F extends Fields> = {
  [K in keyof F & string]: F[K] extends { label: string }
    ? K
    : F[K] extends { kind: 'record'; of: RecordSpec<infer N> }
      ? `${K}.${ColumnPath<N>}`
      : never;
}[keyof F & string];

// ---------------------------------------------------------------------------------------------
// The sandbox's rows

type StoredValue<F> = F extends { kind: infer K extends ValueKind } ? StoredValues[K] : never;
type NullableWhen<F, Value> = F extends { sandbox: 'or-zero' | 'when-set' } | { nullable: true } ? Value | null : Value;
/** True for a field read from the stored column of its name. */
type IsColumn<F> = F extends { kind: ValueKind }
  ? F extends { sandbox: 'never' | { always: unknown } | { copy: string } }
    ? false
    : true
  : false;

type OwnColumns<F extends Fields> = {
  -readonly [K in keyof F as IsColumn<F[K]> extends true ? K : never]: NullableWhen<F[K], StoredValue<F[K]>>;
};
type UnionToIntersection<U> = (U extends unknown ? (union: U) => void : never) extends (all: infer I) => void
  ? I
  : never;
/** The columns of the nested records filled from the same row (a loan request's terms). */
type InlineColumns<F extends Fields> = UnionToIntersection<
  { [K in keyof F]: F[K] extends { sandbox: 'inline'; of: RecordSpec<infer N> } ? OwnColumns<N> : never }[keyof F]
>;
type StoredOnlyColumns<R> = R extends { storedOnly: infer S extends Readonly<Record<string, StoredColumn>> }
  ? { -readonly [K in keyof S]: NullableWhen<S[K], StoredValue<S[K]>> }
  : unknown;

/** The sandbox's row of a record: each column it is filled from, of its stored type. */
export type RowOf<R extends RecordSpec> = OwnColumns<R['fields']> & InlineColumns<R['fields']> & StoredOnlyColumns<R>;

/** The names of the stored columns of records' rows (`RowOf`), each once, in the records' order. */
export function storedColumns(...records: readonly RecordSpec[]): string[] {
  const names = new Set<string>();
  const add = (record: RecordSpec) => {
    for (const [name, field] of Object.entries(record.fields)) {
      const fill = field.sandbox ?? 'column';
      if ('of' in field) {
        if (fill === 'inline') add(field.of);
      } else if (fill === 'column' || fill === 'or-zero' || fill === 'when-set') names.add(name);
    }
    for (const name of Object.keys(record.storedOnly ?? {})) names.add(name);
  };
  for (const record of records) add(record);
  return [...names];
}

/** The field a column path names (`terms.rate` → the terms' `rate`), or undefined. */
export function fieldAt(record: RecordSpec, path: string): FieldSpec | undefined {
  const [name = '', ...rest] = path.split('.');
  const field = record.fields[name];
  if (rest.length === 0 || field === undefined) return field;
  return field.kind === 'record' ? fieldAt(field.of, rest.join('.')) : undefined;
}

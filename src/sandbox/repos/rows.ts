/**
 * How the repositories read rows: each statement's rows as plain objects of one shape.
 *
 * node:sqlite builds a row object in V8's dictionary mode (a hash table per row, a hash lookup
 * per property read), with its column names made anew for every row. Read as arrays and turned
 * into objects by a function compiled once from the statement's column names, every row shares
 * one hidden class: a page of 20 loan requests (38 columns) is read, serialised and stringified
 * in about 75 µs instead of 130 µs (bench/README, "The sandbox against Prism").
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';

type Params = SQLInputValue[] | [Record<string, SQLInputValue>, ...SQLInputValue[]];

export interface RowStatement<Row> {
  all(...params: Params): Row[];
  get(...params: Params): Row | undefined;
  /** The rows one at a time, for a reader that may stop early. */
  iterate(...params: Params): Generator<Row>;
}

export function prepareRows<Row>(db: DatabaseSync, sql: string): RowStatement<Row> {
  const statement = db.prepare(sql);
  const build = rowBuilder(statement) as (values: unknown) => Row;
  return {
    all: (...params) => (statement.all(...(params as SQLInputValue[])) as unknown[]).map(build),
    get: (...params) => {
      const values = statement.get(...(params as SQLInputValue[]));
      return values === undefined ? undefined : build(values);
    },
    iterate: function* (...params) {
      for (const values of statement.iterate(...(params as SQLInputValue[]))) yield build(values);
    },
  };
}

/**
 * Sets `statement` to return arrays and gives the function that makes each into its row object.
 * Node 24's node:sqlite has `setReturnArrays` and `columns`; 22.13's and 22.15's do not (tried).
 * There, on the older Node 22 the package supports, the statement keeps returning node:sqlite's
 * own objects, copied into plain ones: the same names and values as the builder's, only slower.
 */
function rowBuilder(statement: StatementSync): (values: unknown) => unknown {
  const older: Partial<Pick<StatementSync, 'setReturnArrays' | 'columns'>> = statement;
  if (!older.setReturnArrays || !older.columns) return (row) => Object.assign({}, row);
  statement.setReturnArrays(true);
  return objectBuilder(statement.columns().map((column) => column.name));
}

/**
 * `values => ({ "id": values[0], … })` for these names. An object literal written with its keys
 * is what gives every row the same shape; the names are the statement's own columns, never input.
 */
function objectBuilder(names: readonly string[]): (values: unknown) => unknown {
  const properties = names.map((name, index) => `${JSON.stringify(name)}: values[${index}]`);
  return new Function('values', `return { ${properties.join(', ')} };`) as (values: unknown) => unknown;
}

/** The time stamps an INSERT sets to the request's time, bound as `:now`. */
const STAMPS: ReadonlySet<string> = new Set(['created_at', 'updated_at']);

/**
 * `INSERT INTO table (…) VALUES (…)` of these columns, each bound by its name (`:code`) and the time
 * stamps to `:now`: written from a record's column list (`storedColumns`), never typed out again.
 */
export function insertInto(table: string, columns: readonly string[]): string {
  const values = columns.map((column) => (STAMPS.has(column) ? ':now' : `:${column}`));
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${values.join(', ')})`;
}

/**
 * How the repositories read rows: each statement's rows as node:sqlite returns them, typed.
 */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';

type Params = SQLInputValue[] | [Record<string, SQLInputValue>, ...SQLInputValue[]];

export interface RowStatement<Row> {
  all(...params: Params): Row[];
  get(...params: Params): Row | undefined;
  /** The rows one at a time, for a reader that may stop early. */
  iterate(...params: Params): Generator<Row>;
}

export function prepareRows<Row>(db: DatabaseSync, sql: string): RowStatement<Row> {
  const statement = db.prepare(sql);
  return {
    all: (...params) => statement.all(...(params as SQLInputValue[])) as Row[],
    get: (...params) => statement.get(...(params as SQLInputValue[])) as Row | undefined,
    iterate: function* (...params) {
      yield* statement.iterate(...(params as SQLInputValue[])) as Iterable<Row>;
    },
  };
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

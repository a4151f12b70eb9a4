/**
 * A snapshot file is checked before it replaces anything
 * (docs/sandbox.md, "What a snapshot must be"): a snapshot is a file anyone may put in
 * `snapshots/`, and restoring copies its rows as they are, page by page, past every check a
 * request's write goes through. So before the live data is touched, the file must be
 * - a regular file (a FIFO would block the open for ever, a directory is no database);
 * - an SQLite database (its 16-byte header), at this sandbox's schema version;
 * - of exactly this sandbox's schema: the same tables, indexes and triggers, no view, no extra
 *   table or column (the rows are copied column by column, in order);
 * - holding in each column only values of the column's type (SQLite would keep `'lots'` in an
 *   amount, or a BLOB in an e-mail), and ids from 1 to MAX_ID. These are read from every row,
 *   unless the snapshot's seal says the sandbox checked these very bytes when it wrote them
 *   (./snapshot-seal.ts).
 * Each refusal is one SnapshotError naming the snapshot and what is wrong.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { sealMatches, sealOfOpenFile } from './snapshot-seal.js';

export class SnapshotError extends Error {
  override name = 'SnapshotError';
}

/**
 * The largest id a snapshot may hold: 15 digits. Far above any real book, and far below both
 * SQLite's last rowid (where AUTOINCREMENT stops handing out ids) and JavaScript's largest exact
 * integer, so every id after it is still one the API and the CLI can write.
 */
export const MAX_ID = 999_999_999_999_999;

const SQLITE_HEADER = 'SQLite format 3\u0000';

/**
 * Refuses (SnapshotError) a snapshot file that is not what this sandbox would have written. Its
 * values are read, every row, unless its seal vouches that they were checked when the sandbox
 * wrote these very bytes (./snapshot-seal.ts).
 */
export function checkSnapshotFile(file: string, name: string, live: DatabaseSync): void {
  withSnapshot(
    file,
    name,
    live,
    (fd) => sealMatches(file, fd),
    (snapshot, sealed) => {
      if (!sealed) checkAllValues(snapshot, name, live);
    },
  );
}

/**
 * The file, its version and its schema, not its rows: enough to count them safely for the
 * question before a restore, which then checks the rows too.
 */
export function checkSnapshotShape(file: string, name: string, live: DatabaseSync): void {
  withSnapshot(
    file,
    name,
    live,
    () => undefined,
    () => {},
  );
}

/**
 * For a snapshot the sandbox has just written: every check, the values too, and the file's seal
 * when it passes them all. A file that fails earns no seal (SnapshotError is not thrown here: a
 * restore of it says what is wrong, as for any snapshot).
 */
export function sealIfSound(file: string, name: string, live: DatabaseSync): string | undefined {
  try {
    return withSnapshot(file, name, live, sealOfOpenFile, (snapshot, seal) => {
      checkAllValues(snapshot, name, live);
      return seal;
    });
  } catch (error) {
    if (error instanceof SnapshotError) return undefined;
    throw error;
  }
}

/**
 * Checks the file (`whileOpen` reads it through the same open descriptor), then opens it as a
 * database, checks its version and schema, and hands it to `more`.
 */
function withSnapshot<Found, T>(
  file: string,
  name: string,
  live: DatabaseSync,
  whileOpen: (fd: number) => Found,
  more: (snapshot: DatabaseSync, found: Found) => T,
): T {
  const found = checkRegularSqliteFile(file, name, whileOpen);
  let snapshot: DatabaseSync;
  try {
    snapshot = new DatabaseSync(file, { readOnly: true });
  } catch (error) {
    throw unreadable(name, error);
  }
  try {
    checkVersion(snapshot, name, versionOf(live));
    checkSchema(snapshot, name, live);
    return more(snapshot, found);
  } catch (error) {
    if (error instanceof SnapshotError) throw error;
    throw unreadable(name, error);
  } finally {
    snapshot.close();
  }
}

function checkAllValues(snapshot: DatabaseSync, name: string, live: DatabaseSync): void {
  for (const table of tablesOf(live)) checkValues(snapshot, name, live, table);
}

function unreadable(name: string, error: unknown): SnapshotError {
  const reason = error instanceof Error ? error.message : String(error);
  return new SnapshotError(`snapshot "${name}" cannot be read as a sandbox database (${reason}); take a new snapshot`);
}

/**
 * Opened without blocking (a FIFO), then looked at through the open descriptor: what is read is
 * what was checked. `whileOpen` reads more of it, through the same descriptor.
 */
function checkRegularSqliteFile<Found>(file: string, name: string, whileOpen: (fd: number) => Found): Found {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new SnapshotError(`snapshot "${name}" cannot be opened (${(error as NodeJS.ErrnoException).code})`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      throw new SnapshotError(
        `snapshot "${name}" is ${stat.isDirectory() ? 'a directory' : 'not a regular file'}, not a snapshot; remove it and take a new one`,
      );
    }
    const header = Buffer.alloc(SQLITE_HEADER.length);
    const read = readSync(fd, header, 0, header.length, 0);
    if (read < header.length || header.toString('latin1') !== SQLITE_HEADER) {
      throw new SnapshotError(`snapshot "${name}" is not an SQLite database; remove it and take a new one`);
    }
    return whileOpen(fd);
  } finally {
    closeSync(fd);
  }
}

function versionOf(sqlite: DatabaseSync): number {
  return (sqlite.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
}

/** A snapshot of another schema version cannot be copied table by table into this one. */
function checkVersion(sqlite: DatabaseSync, name: string, version: number): void {
  const found = versionOf(sqlite);
  if (found !== version) {
    throw new SnapshotError(
      `snapshot "${name}" has schema version ${found}, this sandbox ${version}; take a new snapshot`,
    );
  }
}

/** Everything the schema holds but SQLite's own objects, as `type name` → its SQL. */
function schemaOf(sqlite: DatabaseSync): Map<string, string | null> {
  const rows = sqlite
    .prepare("SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
    .all();
  return new Map(rows.map((row) => [`${row.type} ${row.name}`, row.sql === null ? null : String(row.sql)]));
}

function checkSchema(snapshot: DatabaseSync, name: string, live: DatabaseSync): void {
  const expected = schemaOf(live);
  const found = schemaOf(snapshot);
  for (const [object, sql] of found) {
    if (!expected.has(object)) {
      throw new SnapshotError(`snapshot "${name}" has a ${object} this sandbox does not; take a new snapshot`);
    }
    if (normalised(expected.get(object)) !== normalised(sql)) {
      throw new SnapshotError(
        `snapshot "${name}": its ${object} differs from this sandbox's (${columnDifference(snapshot, live, object)}); take a new snapshot`,
      );
    }
  }
  for (const object of expected.keys()) {
    if (!found.has(object)) throw new SnapshotError(`snapshot "${name}" has no ${object}; take a new snapshot`);
  }
}

function normalised(sql: string | null | undefined): string {
  return (sql ?? '').replace(/\s+/g, ' ').trim();
}

interface Column {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}

function columnsOf(sqlite: DatabaseSync, table: string): Column[] {
  return sqlite
    .prepare(`SELECT name, type, "notnull", pk FROM pragma_table_info(?)`)
    .all(table)
    .map((row) => ({
      name: String(row.name),
      type: String(row.type),
      notnull: Number(row.notnull),
      pk: Number(row.pk),
    }));
}

/** For a table, which columns differ; for an index or trigger, only that it does. */
function columnDifference(snapshot: DatabaseSync, live: DatabaseSync, object: string): string {
  const [type, table = ''] = object.split(' ');
  if (type !== 'table') return 'another definition';
  const have = new Set(columnsOf(live, table).map((column) => `${column.name} ${column.type}`));
  const extra = columnsOf(snapshot, table).filter((column) => !have.has(`${column.name} ${column.type}`));
  return extra.length > 0 ? `columns ${extra.map((column) => column.name).join(', ')}` : 'another definition';
}

function tablesOf(live: DatabaseSync): string[] {
  const rows = live
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
    .all() as Array<{ name: string }>;
  return rows.map((row) => row.name);
}

/** The values SQLite's `typeof` may give for a column of each declared type. */
function allowedTypes(column: Column): string[] {
  const declared = column.type.toUpperCase();
  const types = declared.includes('INT')
    ? ['integer']
    : declared.includes('REAL')
      ? ['real', 'integer']
      : declared.includes('TEXT')
        ? ['text']
        : ['integer', 'real', 'text', 'blob'];
  return column.notnull || column.pk ? types : [...types, 'null'];
}

/**
 * One pass over the table for a row with a value of the wrong type or an id out of range (one
 * condition per column, OR-ed: ~1.3 s over a million rows, a third less than naming the column
 * in the same pass), then a look at that one row to name what is wrong.
 */
function checkValues(snapshot: DatabaseSync, name: string, live: DatabaseSync, table: string): void {
  const columns = columnsOf(live, table);
  const wrongType = (column: Column) =>
    `typeof(${quoted(column.name)}) NOT IN (${allowedTypes(column).map(sqlText).join(', ')})`;
  const hasId = columns.some((column) => column.name === 'id');
  const idOutOfRange = `id < 1 OR id > ${MAX_ID}`;
  const conditions = [...(hasId ? [idOutOfRange] : []), ...columns.filter((column) => !column.pk).map(wrongType)];
  const statement = snapshot.prepare(
    `SELECT rowid AS row FROM ${quoted(table)} WHERE ${conditions.join(' OR ')} LIMIT 1`,
  );
  // A row id may be beyond JavaScript's exact integers: that is what is being looked for.
  statement.setReadBigInts(true);
  const found = statement.get() as { row: bigint } | undefined;
  if (!found) return;
  const row = snapshot.prepare(
    `SELECT ${conditions.map((condition, at) => `(${condition}) AS c${at}`).join(', ')} FROM ${quoted(table)} WHERE rowid = ?`,
  );
  const values = row.get(found.row) ?? {};
  const which = conditions.map((_condition, at) => Number(values[`c${at}`]) === 1);
  if (hasId && which[0]) {
    throw new SnapshotError(
      `snapshot "${name}": ${table} has an id out of range (ids run from 1 to ${MAX_ID.toLocaleString('en-US')}); take a new snapshot`,
    );
  }
  const column = columns.filter((each) => !each.pk)[which.indexOf(true) - (hasId ? 1 : 0)] as Column;
  throw new SnapshotError(
    `snapshot "${name}": ${table}.${column.name} of row ${found.row} is not ${describeType(column)}; take a new snapshot`,
  );
}

function quoted(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

function sqlText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

function describeType(column: Column): string {
  const kinds = allowedTypes(column).filter((type) => type !== 'null');
  const words: Record<string, string> = { integer: 'a whole number', real: 'a number', text: 'text', blob: 'bytes' };
  const kind = kinds.includes('real') ? 'a number' : kinds.map((type) => words[type]).join(' or ');
  return column.notnull || column.pk ? kind : `${kind} or empty`;
}

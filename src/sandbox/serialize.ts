/**
 * Database rows → the API's JSON shapes (spec section 2): one serialiser per record, built once
 * from its description (src/contract/records.ts), writing its fields in the API's order, each
 * filled as the description's `sandbox` says. Fastify writes the result with JSON.stringify.
 * The loan request list has SQLite write the same text (`jsonSql`, below), from the same descriptions.
 */
import { type FieldSpec, RECORDS, type RecordSpec, type RowOf } from '../contract/records.js';
import { ZERO_TIMESTAMP } from '../contract/vocabulary.js';

type StoredRow = Readonly<Record<string, unknown>>;
type Json = Record<string, unknown>;

/** A field's name and how its value is read from the row: undefined leaves the field out. */
type FieldValue = readonly [name: string, read: (row: StoredRow) => unknown];

/** The function that turns a record's row into its reply. */
function serialiser<R extends RecordSpec>(record: R): (row: RowOf<R>) => Json;
function serialiser(record: RecordSpec): (row: StoredRow) => Json {
  const fields = Object.entries(record.fields).flatMap(([name, field]) => fieldValue(name, field));
  return (row) => {
    const reply: Json = {};
    for (const [name, readValue] of fields) {
      const value = readValue(row);
      if (value !== undefined) reply[name] = value;
    }
    return reply;
  };
}

/** How one field is filled (records.ts `Fill`); none for a field the sandbox never answers. */
function fieldValue(name: string, field: FieldSpec): FieldValue[] {
  const fill = field.sandbox ?? 'column';
  if (fill === 'never') return [];
  if (typeof fill === 'object') {
    if ('copy' in fill) return [[name, (row) => row[fill.copy]]];
    return [[name, () => fill.always]];
  }
  if ('of' in field) {
    if (fill !== 'inline') throw new Error(`the sandbox cannot fill ${name}: a nested record is filled inline`);
    return [[name, serialiser(field.of)]];
  }
  const read = readerOf(field);
  switch (fill) {
    case 'or-zero':
      return [[name, (row) => row[name] ?? ZERO_TIMESTAMP]];
    case 'when-set':
      return [[name, (row) => (row[name] === null ? undefined : read(row[name]))]];
    default:
      return [[name, (row) => read(row[name])]];
  }
}

/** A stored value as the API writes it: a boolean kept as 0/1, a list as JSON text. */
function readerOf(field: FieldSpec): (stored: unknown) => unknown {
  if (field.kind === 'bool') return (stored) => stored === 1;
  if (field.kind === 'texts') return (stored) => JSON.parse(stored as string);
  return (stored) => stored;
}

/** The create-user reply (spec 2.2): no id. Also what an `exists` reply carries. */
export const userCreateReply = serialiser(RECORDS.user);
export const userListItem = serialiser(RECORDS.userListItem);
export const loanRequest = serialiser(RECORDS.loanRequest);
export const bankDetails = serialiser(RECORDS.bankDetails);
export const business = serialiser(RECORDS.business);
export const employment = serialiser(RECORDS.employment);
export const guarantor = serialiser(RECORDS.guarantor);
export const document = serialiser(RECORDS.document);

// ---------------------------------------------------------------------------------------------
// The same replies written by SQLite

/**
 * What `jsonSql` writes in place of a value SQLite might write otherwise than JavaScript. JSON text
 * never holds it as it is (SQLite's json_quote and JSON.stringify escape every control character),
 * so a row's text that holds it is one to serialise as above.
 */
export const UNSURE = '\u0001';

/** The largest whole number a JavaScript number holds exactly (a larger one is read rounded). */
const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * An SQL expression over a record's row (its columns by name, as the serialiser above reads them)
 * whose value is the text JSON.stringify writes of that serialiser's reply, byte for byte; or a
 * text holding UNSURE when a value of the row is one SQLite might write otherwise (then the caller
 * serialises the row as above). One concat of the reply's pieces: its names and constants written
 * here once, as JSON text, and each value by SQLite (docs/decisions/sql-json.md).
 */
export function jsonSql(record: RecordSpec): string {
  const args: string[] = [];
  let text = '';
  for (const piece of recordPieces(record)) {
    if (piece.json === undefined) {
      if (text !== '') args.push(sqlText(text));
      text = '';
      args.push(piece.sql);
    } else text += piece.json;
  }
  if (text !== '') args.push(sqlText(text));
  // SQLite's limit on a function's arguments before its version 3.48 (Node 22 bundles older ones).
  if (args.length > 127) throw new Error(`${args.length} pieces: more than concat takes`);
  return `concat(${args.join(', ')})`;
}

/** A piece of a reply's text: JSON text as it is, or an SQL expression whose value is JSON text. */
type Piece = { json: string; sql?: never } | { json?: never; sql: string };

/** The record's pieces, from `{` to `}`; a field left out while its column is null is one piece with its comma. */
function recordPieces(record: RecordSpec): Piece[] {
  const pieces: Piece[] = [{ json: '{' }];
  let first = true;
  for (const [name, field] of Object.entries(record.fields)) {
    const value = valuePieces(name, field);
    if (value === undefined) continue;
    const key = `${first ? '' : ','}${JSON.stringify(name)}:`;
    if (field.sandbox === 'when-set') {
      if (first) throw new Error(`${name}: a record cannot start with a field left out while null`);
      const sql = value.map((piece) => (piece.json === undefined ? piece.sql : sqlText(piece.json))).join(' || ');
      pieces.push({ sql: `CASE WHEN ${columnSql(name)} IS NULL THEN '' ELSE ${sqlText(key)} || ${sql} END` });
    } else pieces.push({ json: key }, ...value);
    first = false;
  }
  pieces.push({ json: '}' });
  return pieces;
}

/** A field's value as pieces of JSON text; none for a field the sandbox never answers. */
function valuePieces(name: string, field: FieldSpec): Piece[] | undefined {
  const fill = field.sandbox ?? 'column';
  if (fill === 'never') return undefined;
  if (typeof fill === 'object') {
    if ('copy' in fill) return [{ sql: storedValueSql(columnSql(fill.copy), field) }];
    return [{ json: JSON.stringify(fill.always) }];
  }
  if ('of' in field) {
    if (fill !== 'inline') throw new Error(`the sandbox cannot fill ${name}: a nested record is filled inline`);
    return recordPieces(field.of);
  }
  const column = columnSql(name);
  if (fill === 'or-zero') {
    // The zero timestamp as JSON text, written here once rather than escaped by SQLite in every row.
    const zero = sqlText(JSON.stringify(ZERO_TIMESTAMP));
    return [{ sql: `CASE WHEN ${column} IS NULL THEN ${zero} ELSE ${storedValueSql(column, field)} END` }];
  }
  // readerOf: true only for the number 1.
  if (field.kind === 'bool') return [{ sql: `CASE WHEN ${column} = 1 THEN 'true' ELSE 'false' END` }];
  return [{ sql: storedValueSql(column, field) }];
}

/** The kinds whose values are numbers. */
const NUMBER_KINDS: ReadonlySet<string> = new Set(['id', 'count', 'number', 'money', 'whole-money', 'rate']);

/**
 * A stored value as JSON text, as JSON.stringify writes what node:sqlite reads of it, or UNSURE.
 * Text and null SQLite writes as JavaScript does (json_quote); json_quote refuses a blob, which no
 * column of the sandbox holds (a snapshot with one is refused: src/sandbox/control/snapshot-check.ts).
 * A list (JSON text, which JavaScript parses and writes again) only while it is null. A number
 * whole and exact in a JavaScript number as an integer (SQLite writes a REAL 1000 as 1000.0,
 * JavaScript as 1000); a fraction in plain notation whose 15 digits read back as itself as those
 * digits (JavaScript writes the fewest digits that read back: those, without trailing zeros, as
 * C's %g does; SQLite's JSON writes up to 17, which its versions choose differently).
 */
function storedValueSql(value: string, field: FieldSpec): string {
  if (field.kind === 'texts') return `CASE WHEN ${value} IS NULL THEN 'null' ELSE ${sqlText(UNSURE)} END`;
  if (!NUMBER_KINDS.has(field.kind)) return `json_quote(${value})`;
  return (
    `CASE WHEN ${value} = CAST(${value} AS INTEGER) AND ${value} BETWEEN -${SAFE} AND ${SAFE} THEN CAST(${value} AS INTEGER)` +
    ` WHEN ${value} IS NULL OR typeof(${value}) = 'text' THEN json_quote(${value})` +
    ` WHEN abs(${value}) >= 1e-4 AND abs(${value}) < 1e15 AND CAST(printf('%.15g', ${value}) AS REAL) = ${value}` +
    ` THEN printf('%.15g', ${value}) ELSE ${sqlText(UNSURE)} END`
  );
}

function columnSql(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a column name: ${name}`);
  return `"${name}"`;
}

/** Text as an SQL string literal. */
function sqlText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

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

/** The largest whole number a JavaScript number holds exactly (a larger one is read rounded). */
const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * An SQL expression over a record's row (its columns by name, as the serialiser above reads them)
 * whose value is the text JSON.stringify writes of that serialiser's reply, byte for byte; or NULL
 * when a value of the row is one SQLite might write otherwise (then the caller serialises the row
 * as above). SQLite's json_object writes the record in C: see docs/decisions/sql-json.md.
 */
export function jsonSql(record: RecordSpec): string {
  const sure = sureSql(record);
  return sure === undefined ? objectSql(record) : `CASE WHEN ${sure} THEN ${objectSql(record)} END`;
}

/** The record's JSON text: one json_object, or its runs joined when a field may be left out. */
function objectSql(record: RecordSpec): string {
  const members = Object.entries(record.fields).flatMap(([name, field]) => {
    const value = memberValueSql(name, field);
    return value === undefined ? [] : [{ name, field, value }];
  });
  if (!members.some(({ field }) => field.sandbox === 'when-set')) {
    return `json_object(${members.map(({ name, value }) => `${sqlText(name)}, ${value}`).join(', ')})`;
  }
  // Each run of fields always written is one json_object, its braces cut where another part
  // follows or comes before (rtrim cuts one: its last value is not an object, checked below); a
  // field left out while its column is null (`when-set`) is a part of its own. concat copies once.
  const parts: string[] = [];
  let run: typeof members = [];
  const endRun = (last: boolean) => {
    if (run.length === 0) return;
    const final = run.at(-1) as (typeof members)[number];
    if (!last && writesObject(final.field)) {
      throw new Error(`${final.name}: a field before one left out while null must not be an object`);
    }
    let object = `json_object(${run.map(({ name, value }) => `${sqlText(name)}, ${value}`).join(', ')})`;
    if (!last) object = `rtrim(${object}, '}')`;
    parts.push(parts.length === 0 ? object : `',', ltrim(${object}, '{')`);
    run = [];
  };
  for (const member of members) {
    if (member.field.sandbox !== 'when-set') {
      run.push(member);
      continue;
    }
    if (parts.length === 0 && run.length === 0)
      throw new Error(`${member.name}: a record cannot start with a field left out while null`);
    endRun(false);
    const key = sqlText(`,${JSON.stringify(member.name)}:`);
    parts.push(`CASE WHEN ${columnSql(member.name)} IS NULL THEN '' ELSE ${key} || json_quote(${member.value}) END`);
  }
  if (run.length === 0) parts.push(`'}'`);
  endRun(true);
  return `concat(${parts.join(', ')})`;
}

/** Whether a field's value is written as a JSON object (its text ends with `}`); a constant never is (records.ts `Fill`). */
function writesObject(field: FieldSpec): boolean {
  return (field.sandbox ?? 'column') === 'inline';
}

function memberValueSql(name: string, field: FieldSpec): string | undefined {
  const fill = field.sandbox ?? 'column';
  if (fill === 'never') return undefined;
  if (typeof fill === 'object') {
    if ('copy' in fill) return storedValueSql(columnSql(fill.copy), field);
    const value = fill.always;
    if (value === null) return 'NULL';
    return typeof value === 'string' ? sqlText(value) : `json(${sqlText(JSON.stringify(value))})`;
  }
  if ('of' in field) {
    if (fill !== 'inline') throw new Error(`the sandbox cannot fill ${name}: a nested record is filled inline`);
    // json() marks the text as JSON, for the json_object around it to write it as it is.
    const object = objectSql(field.of);
    return object.startsWith('json_object(') ? object : `json(${object})`;
  }
  const column = columnSql(name);
  if (fill === 'or-zero') return `coalesce(${storedValueSql(column, field)}, ${sqlText(ZERO_TIMESTAMP)})`;
  // readerOf: true only for the number 1.
  if (field.kind === 'bool') return `CASE WHEN ${column} = 1 THEN json('true') ELSE json('false') END`;
  // A list (JSON text) is written here only while it is null (sureSql).
  return storedValueSql(column, field);
}

/** The kinds whose values are numbers. */
const NUMBER_KINDS: ReadonlySet<string> = new Set(['id', 'count', 'number', 'money', 'whole-money', 'rate']);

/**
 * A stored number as json_object should take it: a whole one as an integer (SQLite writes a REAL
 * 1000 as 1000.0, JavaScript as 1000); a fraction as the text of its 15 digits, as JSON (json_object
 * writes a REAL with up to 17 digits, which SQLite versions choose differently). sureSql checks that
 * those 15 digits are the ones JavaScript writes. Anything else as it is.
 */
function storedValueSql(column: string, field: FieldSpec): string {
  if (!NUMBER_KINDS.has(field.kind)) return column;
  return (
    `CASE WHEN ${column} = CAST(${column} AS INTEGER) THEN CAST(${column} AS INTEGER)` +
    ` WHEN typeof(${column}) = 'real' THEN json(printf('%.15g', ${column})) ELSE ${column} END`
  );
}

/**
 * True when every value of the row is written as JSON.stringify writes what node:sqlite reads of
 * it: a number whole and exact in a JavaScript number, or a fraction in plain notation whose 15
 * digits read back as itself (JavaScript writes the fewest digits that read back: those, without
 * trailing zeros, as C's %g does); a list kept as JSON text only while it is null (JavaScript
 * parses it and writes it again). Text and null SQLite writes as JavaScript does; json_object
 * refuses a blob, which no column of the sandbox holds (a snapshot with one is refused:
 * src/sandbox/control/snapshot-check.ts).
 */
function sureSql(record: RecordSpec): string | undefined {
  const checks = readColumns(record).flatMap(([column, field]) => {
    if (field.kind === 'texts') return [`${column} IS NULL`];
    if (!NUMBER_KINDS.has(field.kind)) return [];
    return [
      `(${column} = CAST(${column} AS INTEGER) AND ${column} BETWEEN -${SAFE} AND ${SAFE}` +
        ` OR ${column} IS NULL OR typeof(${column}) = 'text'` +
        ` OR abs(${column}) >= 1e-4 AND abs(${column}) < 1e15 AND CAST(printf('%.15g', ${column}) AS REAL) = ${column})`,
    ];
  });
  return checks.length === 0 ? undefined : checks.join(' AND ');
}

/** The columns a record's reply is read from, each with the field it fills. */
function readColumns(record: RecordSpec): [string, FieldSpec][] {
  return Object.entries(record.fields).flatMap(([name, field]): [string, FieldSpec][] => {
    const fill = field.sandbox ?? 'column';
    if ('of' in field) return fill === 'inline' ? readColumns(field.of) : [];
    if (typeof fill === 'object') return 'copy' in fill ? [[columnSql(fill.copy), field]] : [];
    return fill === 'never' ? [] : [[columnSql(name), field]];
  });
}

function columnSql(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a column name: ${name}`);
  return `"${name}"`;
}

/** Text as an SQL string literal. */
function sqlText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * Database rows → the API's JSON shapes (spec section 2): one serialiser per record, built once
 * from its description (src/contract/records.ts), writing its fields in the API's order, each
 * filled as the description's `sandbox` says. Fastify writes the result with JSON.stringify.
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

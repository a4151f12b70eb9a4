/**
 * Database rows → the API's JSON shapes (spec section 2): one serialiser per record, built once
 * from its description (src/contract/records.ts), writing its fields in the API's order, each
 * filled as the description's `sandbox` says.
 */
import { type FieldSpec, RECORDS, type RecordSpec, type RowOf, type ValueKind } from '../contract/records.js';
import { ZERO_TIMESTAMP } from '../contract/vocabulary.js';

type StoredRow = Readonly<Record<string, unknown>>;
type Json = Record<string, unknown>;
/** Writes one field of the reply from the row. */
type Put = (row: StoredRow, json: Json) => void;

/** A stored value as the API writes it: a boolean kept as 0/1, a list kept as JSON text. */
const READ: Partial<Record<ValueKind, (stored: unknown) => unknown>> = {
  bool: (stored) => stored === 1,
  texts: (stored) => JSON.parse(String(stored)),
};
const asStored = (stored: unknown) => stored;

/** The function that turns a record's row into its reply. */
export function serialiser<R extends RecordSpec>(record: R): (row: RowOf<R>) => Json;
export function serialiser(record: RecordSpec): (row: StoredRow) => Json {
  const puts = Object.entries(record.fields).flatMap(([name, field]) => putOf(name, field));
  return (row) => {
    const json: Json = {};
    for (const put of puts) put(row, json);
    return json;
  };
}

/** How one field is filled (records.ts `Fill`); none for a field the sandbox never answers. */
function putOf(name: string, field: FieldSpec): Put[] {
  const fill = field.sandbox ?? 'column';
  if (fill === 'never') return [];
  if (typeof fill === 'object') {
    const value = 'copy' in fill ? (row: StoredRow) => row[fill.copy] : () => fill.always;
    return [put(name, value)];
  }
  if ('of' in field) {
    if (fill !== 'inline') throw new Error(`the sandbox cannot fill ${name}: a nested record is filled inline`);
    return [put(name, serialiser(field.of))];
  }
  const read = READ[field.kind] ?? asStored;
  if (fill === 'or-zero') return [put(name, (row) => row[name] ?? ZERO_TIMESTAMP)];
  if (fill === 'when-set') {
    return [
      (row, json) => {
        if (row[name] !== null) json[name] = read(row[name]);
      },
    ];
  }
  return [put(name, (row) => read(row[name]))];
}

function put(name: string, value: (row: StoredRow) => unknown): Put {
  return (row, json) => {
    json[name] = value(row);
  };
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

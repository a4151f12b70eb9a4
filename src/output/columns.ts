/**
 * Table columns per resource: the ones an operator wants first, with header labels and formats.
 * A column's key is the API's field name (a dotted path for nested fields, e.g. `terms.rate`), so
 * the same names work in `--fields` for every format. A record's columns come from its
 * description (src/contract/records.ts `table`): its label, and the format its kind is shown in.
 * The two column sets that are not API records (profiles, `loan queue`) are written here.
 */
import { type OperationKey, replyPayloadShape, replyRecord } from '../contract/operations.js';
import { fieldAt, RECORDS, type RecordName, type RecordSpec, type ValueKind } from '../contract/records.js';
import { LOAN_REQUEST_PRESETS } from './presets.js';

export type CellFormat = 'text' | 'money' | 'timestamp' | 'date' | 'bool' | 'number' | 'rate';

export interface Column {
  key: string;
  label: string;
  format?: CellFormat;
}

/** The records shown as tables (those with a `table` in their description). */
type TableRecord = { [R in RecordName]: (typeof RECORDS)[R] extends { table: object } ? R : never }[RecordName];
export type ResourceKind = TableRecord | 'profile' | 'queue';

export interface ColumnSet {
  /** Columns of a list (one row per record). */
  list: Column[];
  /** Rows of the detail view of one record (label: value); defaults to `list`. */
  detail?: Column[];
  /** Plural noun for "no … found". */
  noun: string;
  /** Keys a command adds to the reply's record (valid in `--fields` though no column shows them). */
  computed?: readonly string[];
  /**
   * Columns a list joins into each row from elsewhere, by name in `--fields` only, and only on the
   * lists that fill them (./output.ts `joinedListShape`): never in a reply's own names.
   */
  joined?: readonly Column[];
  /** `--fields @name`: named lists of this set's fields, for the lists that take its joined columns. */
  presets?: Readonly<Record<string, readonly string[]>>;
}

const c = (key: string, label: string, format?: CellFormat): Column =>
  format ? { key, label, format } : { key, label };

/**
 * How a value of each kind is shown (src/output/values.ts); none: as it is, or as it looks
 * (src/output/format.ts guessFormat). An id is shown without thousands separators.
 */
const KIND_FORMATS: Record<ValueKind, CellFormat | undefined> = {
  id: undefined,
  count: 'number',
  number: 'number',
  money: 'money',
  'whole-money': 'money',
  rate: 'rate',
  text: undefined,
  date: 'date',
  timestamp: 'timestamp',
  bool: 'bool',
  texts: undefined,
};

/** The column of a record's field: its label as a detail row reads it, or as a list's header. */
function recordColumn(record: RecordSpec, path: string, view: 'list' | 'detail'): Column {
  const field = fieldAt(record, path);
  if (field?.label === undefined) throw new Error(`${path} has no column label`);
  const label = view === 'list' ? (field.header ?? field.label.toUpperCase()) : field.label;
  return c(path, label, 'of' in field ? undefined : KIND_FORMATS[field.kind]);
}

function recordColumns(record: RecordSpec): ColumnSet {
  if (!record.table) throw new Error('the record is not shown as a table');
  const { noun, list, detail } = record.table;
  const columns = (paths: readonly string[], view: 'list' | 'detail') =>
    paths.map((path) => recordColumn(record, path, view));
  return detail
    ? { noun, list: columns(list, 'list'), detail: columns(detail, 'detail') }
    : { noun, list: columns(list, 'list') };
}

/** The columns of every record shown as a table, from its description alone. */
const RECORD_COLUMNS = Object.fromEntries(
  Object.entries(RECORDS as Readonly<Record<string, RecordSpec>>).flatMap(([name, record]) =>
    record.table ? [[name, recordColumns(record)]] : [],
  ),
) as Record<TableRecord, ColumnSet>;

/**
 * A loan request's borrower, by its `user_id`, from loanctl's local index of borrowers
 * (src/commands/common/borrower-columns.ts fills them): the API's loan request carries only the
 * name. Text, so that a spreadsheet never reads a phone as a number.
 */
export const BORROWER_COLUMNS: readonly Column[] = [
  c('borrower_email', 'BORROWER EMAIL'),
  c('borrower_phone', 'BORROWER PHONE'),
];

export const COLUMNS: Record<ResourceKind, ColumnSet> = {
  ...RECORD_COLUMNS,
  loanRequest: {
    ...RECORD_COLUMNS.loanRequest,
    joined: BORROWER_COLUMNS,
    presets: LOAN_REQUEST_PRESETS,
  },
  // `user create` says whether the user was created or already existed.
  user: { ...RECORD_COLUMNS.user, computed: ['status'] },
  profile: {
    noun: 'profiles',
    list: [
      c('current', 'CURRENT', 'bool'),
      c('name', 'NAME'),
      c('base_url', 'BASE URL'),
      c('product_id', 'PRODUCT'),
      c('org_id', 'ORG'),
      c('api_key', 'API KEY'),
      c('key_storage', 'KEY IN'),
    ],
    detail: [
      c('name', 'Name'),
      c('current', 'Current', 'bool'),
      c('base_url', 'Base URL'),
      c('product_id', 'Product id'),
      c('org_id', 'Org id'),
      c('api_key', 'API key'),
      c('key_storage', 'Key stored in'),
      c('dashboard_url', 'Dashboard URL'),
      c('csv_bom', 'CSV with BOM', 'bool'),
    ],
  },
  // `loan queue`'s rows (src/commands/loan/queue.ts QueueRow): computed by loanctl, no reply schema.
  queue: {
    noun: 'loan requests waiting for approval',
    list: [
      c('id', 'ID'),
      c('submitted_at', 'SUBMITTED', 'timestamp'),
      c('age', 'WAITING'),
      c('user_id', 'USER'),
      c('borrower', 'BORROWER'),
      c('amount', 'AMOUNT', 'money'),
      c('purpose', 'PURPOSE'),
    ],
    joined: BORROWER_COLUMNS,
  },
};

/**
 * A repayment schedule's instalment columns, keyed by the Schedule's own field names (so `--fields`
 * uses them too): `loan schedule` and the dashboard's approval page both show them.
 */
export const SCHEDULE_COLUMNS: readonly Column[] = [
  c('number', 'NO.', 'number'),
  c('due_date', 'DUE DATE'),
  c('principal', 'PRINCIPAL', 'money'),
  c('interest', 'INTEREST', 'money'),
  c('total', 'TOTAL', 'money'),
  c('balance', 'BALANCE', 'money'),
];

/**
 * The column set of the record an operation's reply is printed from (src/contract/operations.ts
 * `reply`), for the operations whose reply is a record or a list of them.
 */
export function replyKind(key: OperationKey): ResourceKind {
  const record = replyRecord(replyPayloadShape(key));
  if (record === undefined) throw new Error(`the reply of ${key} carries no record`);
  return record === 'loanRequestPage' ? 'loanRequest' : record;
}

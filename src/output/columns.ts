/**
 * Table columns per resource: the ones an operator wants first, with header labels and formats.
 * A column's key is the API's field name (a dotted path for nested fields, e.g. `terms.rate`), so
 * the same names work in `--fields` for every format.
 */
import { type OperationKey, replyPayloadShape, replyRecord } from '../contract/operations.js';

export type CellFormat = 'text' | 'money' | 'timestamp' | 'date' | 'bool' | 'number' | 'rate';

export interface Column {
  key: string;
  label: string;
  format?: CellFormat;
}

export const RESOURCE_KINDS = [
  'user',
  'userListItem',
  'loanRequest',
  'bankDetails',
  'guarantor',
  'employment',
  'document',
  'business',
  'profile',
  'queue',
] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

export interface ColumnSet {
  /** Columns of a list (one row per record). */
  list: Column[];
  /** Rows of the detail view of one record (label: value); defaults to `list`. */
  detail?: Column[];
  /** Plural noun for "no … found". */
  noun: string;
  /** Keys a command adds to the reply's record (valid in `--fields` though no column shows them). */
  computed?: readonly string[];
}

const c = (key: string, label: string, format?: CellFormat): Column =>
  format ? { key, label, format } : { key, label };

export const COLUMNS: Record<ResourceKind, ColumnSet> = {
  user: {
    noun: 'users',
    // `user create` says whether the user was created or already existed.
    computed: ['status'],
    list: [
      c('email', 'EMAIL'),
      c('firstname', 'FIRST NAME'),
      c('lastname', 'LAST NAME'),
      c('phone', 'PHONE'),
      c('gender', 'GENDER'),
      c('reference', 'REFERENCE'),
      c('is_active', 'ACTIVE', 'bool'),
      c('source', 'SOURCE'),
      c('created_at', 'CREATED', 'timestamp'),
    ],
  },
  userListItem: {
    noun: 'users',
    list: [
      c('id', 'ID'),
      c('firstname', 'FIRST NAME'),
      c('lastname', 'LAST NAME'),
      c('email', 'EMAIL'),
      c('phone', 'PHONE'),
      c('gender', 'GENDER'),
      c('is_active', 'ACTIVE', 'bool'),
      c('is_blacklisted', 'BLACKLISTED', 'bool'),
      c('created_at', 'CREATED', 'timestamp'),
    ],
  },
  loanRequest: {
    noun: 'loan requests',
    list: [
      c('id', 'ID'),
      c('fullname', 'BORROWER'),
      c('amount', 'AMOUNT', 'money'),
      c('purpose', 'PURPOSE'),
      c('status', 'STATUS'),
      c('lender_status', 'LENDER STATUS'),
      c('submitted_at', 'SUBMITTED', 'timestamp'),
      c('approved_at', 'APPROVED', 'timestamp'),
    ],
    detail: [
      c('id', 'ID'),
      c('reference', 'Reference'),
      c('fullname', 'Borrower'),
      c('user_id', 'User id'),
      c('product_name', 'Product'),
      c('product_id', 'Product id'),
      c('amount', 'Amount', 'money'),
      c('purpose', 'Purpose'),
      c('status', 'Status'),
      c('lender_status', 'Lender status'),
      c('user_status', 'User status'),
      c('progress', 'Progress'),
      c('terms.approved_amount', 'Approved amount', 'money'),
      c('terms.rate', 'Rate', 'rate'),
      c('terms.rate_type', 'Rate type'),
      c('terms.tenure', 'Tenure', 'number'),
      c('terms.tenured_in', 'Tenured in'),
      c('terms.estimated_repayment', 'Estimated repayment', 'money'),
      c('created_at', 'Created', 'timestamp'),
      c('submitted_at', 'Submitted', 'timestamp'),
      c('approved_at', 'Approved', 'timestamp'),
      c('approved_by', 'Approved by'),
    ],
  },
  bankDetails: {
    noun: 'bank details',
    list: [
      c('id', 'ID'),
      c('bank_name', 'BANK'),
      c('code', 'CODE'),
      c('account_name', 'ACCOUNT NAME'),
      c('account_number', 'ACCOUNT NUMBER'),
      c('created_at', 'ADDED', 'timestamp'),
    ],
  },
  guarantor: {
    noun: 'guarantors',
    list: [
      c('id', 'ID'),
      c('firstname', 'FIRST NAME'),
      c('lastname', 'LAST NAME'),
      c('relationship', 'RELATIONSHIP'),
      c('email', 'EMAIL'),
      c('phone', 'PHONE'),
      c('created_at', 'ADDED', 'timestamp'),
    ],
  },
  employment: {
    noun: 'employment records',
    list: [
      c('id', 'ID'),
      c('company_name', 'COMPANY'),
      c('position', 'POSITION'),
      c('status', 'STATUS'),
      c('salary', 'SALARY', 'money'),
      c('manager', 'MANAGER'),
      c('manager_phone', 'MANAGER PHONE'),
      c('manager_email', 'MANAGER EMAIL'),
    ],
    detail: [
      c('id', 'ID'),
      c('company_name', 'Company'),
      c('company_address', 'Address'),
      c('position', 'Position'),
      c('status', 'Status'),
      c('salary', 'Salary', 'money'),
      c('manager', 'Manager'),
      c('manager_phone', 'Manager phone'),
      c('manager_email', 'Manager e-mail'),
      c('created_at', 'Added', 'timestamp'),
    ],
  },
  document: {
    noun: 'documents',
    list: [
      c('id', 'ID'),
      c('type', 'TYPE'),
      c('title', 'TITLE'),
      c('number', 'NUMBER'),
      c('reference', 'REFERENCE'),
      c('document_url', 'URL'),
      c('created_at', 'ADDED', 'timestamp'),
    ],
  },
  business: {
    noun: 'business records',
    list: [
      c('id', 'ID'),
      c('name', 'NAME'),
      c('industry', 'INDUSTRY'),
      c('role', 'ROLE'),
      c('registered', 'REGISTERED', 'bool'),
      c('registration_number', 'REG. NUMBER'),
      c('established_on', 'ESTABLISHED', 'date'),
      c('average_monthly_income', 'AVG MONTHLY INCOME', 'money'),
      c('number_of_employees', 'EMPLOYEES', 'number'),
    ],
  },
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
  },
};

/**
 * The column set of the record an operation's reply is printed from (src/contract/operations.ts
 * `reply`), for the operations whose reply is a record or a list of them.
 */
export function replyKind(key: OperationKey): ResourceKind {
  const record = replyRecord(replyPayloadShape(key));
  if (record === undefined) throw new Error(`the reply of ${key} carries no record`);
  return record === 'loanRequestPage' ? 'loanRequest' : record;
}

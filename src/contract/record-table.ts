/**
 * The records the API returns (spec section 2), one entry each, fields in the API's order:
 * borrowers and loan requests here, what is attached to a loan request in ./attached-records.ts.
 * ./records.ts says what an entry holds and derives the rest from it.
 */
import { BANK_DETAILS, BUSINESS, DOCUMENT, EMPLOYMENT, GUARANTOR } from './attached-records.js';
import { CUSTOM_FIELD, describe, ID, NEVER_ANSWERED, NEVER_SET, OWNER_ID, TEXT, TIMESTAMP } from './describe-record.js';

// 2.2 User. The create reply carries no id: a client finds the id through the user list.
const USER = describe({
  fields: {
    firstname: { kind: 'text', label: 'First name' },
    lastname: { kind: 'text', label: 'Last name' },
    email: { kind: 'text', label: 'Email' },
    phone: { kind: 'text', label: 'Phone' },
    gender: { kind: 'text', label: 'Gender' },
    reference: { kind: 'text', label: 'Reference' },
    is_active: { kind: 'bool', label: 'Active' },
    source: { kind: 'text', label: 'Source' },
    created_at: { kind: 'timestamp', label: 'Created' },
    updated_at: TIMESTAMP,
  },
  table: {
    noun: 'users',
    list: ['email', 'firstname', 'lastname', 'phone', 'gender', 'reference', 'is_active', 'source', 'created_at'],
  },
});

/** A list item has one of is_active or is_blacklisted (spec 2.2); the sandbox's users are active. */
const USER_LIST_ITEM = describe({
  fields: {
    id: ID,
    org_id: OWNER_ID,
    firstname: USER.fields.firstname,
    lastname: USER.fields.lastname,
    email: USER.fields.email,
    phone: USER.fields.phone,
    gender: USER.fields.gender,
    is_active: { kind: 'bool', optional: true, label: 'Active' },
    is_blacklisted: { kind: 'bool', optional: true, label: 'Blacklisted', ...NEVER_ANSWERED },
    created_at: USER.fields.created_at,
    updated_at: TIMESTAMP,
  },
  table: {
    noun: 'users',
    list: ['id', 'firstname', 'lastname', 'email', 'phone', 'gender', 'is_active', 'is_blacklisted', 'created_at'],
  },
});

// 2.4 Terms, and the approval terms of 4.19: stored in the loan request's row.
const TERMS = describe({
  fields: {
    approved_amount: { kind: 'money', label: 'Approved amount' },
    rate: { kind: 'rate', label: 'Rate' },
    tenure: { kind: 'number', label: 'Tenure' },
    // Texts, not the request's words: a reply must not be refused because the API learnt a new value.
    tenured_in: { kind: 'text', label: 'Tenured in' },
    rate_type: { kind: 'text', label: 'Rate type' },
    grace_period: { kind: 'number' },
    exclude_weekends: { kind: 'bool' },
    zero_interest: { kind: 'bool' },
    estimated_repayment: { kind: 'money', label: 'Estimated repayment' },
    note: TEXT,
  },
});

// 2.3 Loan request. Optional fields appear once they are set: `progress` after the first progress
// marker, `linker_ids`/`linker_tokenized` after tokenizing, `approved_by(_id)` after approval.
const LOAN_REQUEST = describe({
  fields: {
    id: ID,
    user_id: { kind: 'id', label: 'User id' },
    org_id: OWNER_ID,
    product_id: { kind: 'id', label: 'Product id' },
    // The names below are joined in from the product, organisation and user (LOAN_REQUEST_VIEW).
    product_name: { kind: 'text', label: 'Product' },
    product_slug: TEXT,
    lender_name: TEXT,
    reference: { kind: 'text', label: 'Reference' },
    fullname: { kind: 'text', label: 'Borrower' },
    amount: { kind: 'money', label: 'Amount' },
    purpose: { kind: 'text', label: 'Purpose' },
    terms: { kind: 'record', of: TERMS, sandbox: 'inline' },
    status: { kind: 'text', label: 'Status' },
    active: { kind: 'bool' },
    progress: { kind: 'text', optional: true, label: 'Progress', sandbox: 'when-set' },
    lender_status: { kind: 'text', label: 'Lender status' },
    user_status: { kind: 'text', label: 'User status' },
    debit_mandate_next_step: TEXT,
    offer_letter: { kind: 'text', optional: true, ...NEVER_ANSWERED },
    linker_ids: { kind: 'texts', nullable: true, optional: true, sandbox: 'when-set' },
    linker_tokenized: { kind: 'bool', optional: true, sandbox: 'when-set' },
    approved_by_id: { kind: 'id', optional: true, sandbox: 'when-set' },
    approved_by: { kind: 'text', optional: true, label: 'Approved by', sandbox: 'when-set' },
    disbursed_by: { kind: 'text', optional: true, ...NEVER_ANSWERED },
    disbursed: { kind: 'bool', optional: true, ...NEVER_ANSWERED },
    manually_disbursed: { kind: 'bool', optional: true, ...NEVER_ANSWERED },
    declined_at: NEVER_SET,
    final_approval_date: { kind: 'timestamp', sandbox: 'or-zero' },
    approved_at: { kind: 'timestamp', label: 'Approved', sandbox: 'or-zero' },
    user_accepted_date: NEVER_SET,
    user_declined_date: NEVER_SET,
    archived_date: NEVER_SET,
    unarchived_at: NEVER_SET,
    disbursed_at: NEVER_SET,
    submitted_at: { kind: 'timestamp', label: 'Submitted', sandbox: 'or-zero' },
    deleted_at: { kind: 'timestamp', sandbox: 'or-zero' },
    created_at: { kind: 'timestamp', label: 'Created' },
    updated_at: TIMESTAMP,
  },
  // The repayment frequency of the approved terms (4.19): the dashboard's approval form shows it again.
  storedOnly: { frequency: { kind: 'text' } },
  table: {
    noun: 'loan requests',
    list: ['id', 'fullname', 'amount', 'purpose', 'status', 'lender_status', 'submitted_at', 'approved_at'],
    detail: [
      'id',
      'reference',
      'fullname',
      'user_id',
      'product_name',
      'product_id',
      'amount',
      'purpose',
      'status',
      'lender_status',
      'user_status',
      'progress',
      'terms.approved_amount',
      'terms.rate',
      'terms.rate_type',
      'terms.tenure',
      'terms.tenured_in',
      'terms.estimated_repayment',
      'created_at',
      'submitted_at',
      'approved_at',
      'approved_by',
    ],
  },
});

/**
 * A page of the loan request list (4.5): the sandbox's handler builds it from serialised loan
 * requests. Its cursor is the last id it holds, or 0 for an empty page: a count, not an id.
 */
const LOAN_REQUEST_PAGE = describe({
  fields: { loan_requests: { kind: 'records', of: LOAN_REQUEST }, cursor: { kind: 'count' } },
});

/** Every record a reply may carry, by the name the operations use (./operations.ts `reply`). */
export const RECORDS = {
  user: USER,
  userListItem: USER_LIST_ITEM,
  loanRequest: LOAN_REQUEST,
  loanRequestPage: LOAN_REQUEST_PAGE,
  bankDetails: BANK_DETAILS,
  guarantor: GUARANTOR,
  employment: EMPLOYMENT,
  document: DOCUMENT,
  business: BUSINESS,
} as const;

/** The nested records, for the schemas that name them (./schemas.ts `Terms`, `CustomField`). */
export const NESTED_RECORDS = { terms: TERMS, customField: CUSTOM_FIELD } as const;

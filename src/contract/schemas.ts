/**
 * The zod schemas of every resource in the Lending Origination API (spec section 2).
 *
 * These are the reply schemas (what the API returns): loose objects that accept fields they do not
 * know, because the real API adds fields over time, but reject known fields of the wrong type. The
 * request bodies' schemas are built from the field table (./fields.ts, ./field-schemas.ts).
 */
import * as z from 'zod';
import { ENVELOPE_STATUSES, ISO_DATE_TIME } from './vocabulary.js';

// The zod-free words and types (./vocabulary.ts), for the modules that already import this one.
export {
  FREQUENCIES,
  type Frequency,
  PHONE_PATTERN,
  RATE_TYPES,
  type RateType,
  TENURED_IN,
  type TenuredIn,
  ZERO_TIMESTAMP,
} from './vocabulary.js';

// Reply fields of the same type share one schema instead of each building its own: a zod schema
// is immutable, so sharing changes no result, and building ~300 of them (`z.number().int()` is
// two schemas, and among zod's costliest) was most of the time this module takes to load, on the
// start-up of every network command (bench/README.md).
const Text = z.string();
const OptionalText = Text.optional();
const Bool = z.boolean();
const OptionalBool = Bool.optional();
const Num = z.number();
const Int = z.number().int();
const OptionalInt = Int.optional();

export const Timestamp = z.string().regex(ISO_DATE_TIME, 'must be an ISO 8601 date-time');
export type Timestamp = z.infer<typeof Timestamp>;

// Runs of fields several records share, in the order the API writes them.
/** When a record was made and last changed: the last two fields of most records. */
const STAMPED = { created_at: Timestamp, updated_at: Timestamp };
/** What a record attached to a loan request starts with (documents, bank details, guarantors). */
const ATTACHED = { id: Int, user_id: Int, org_id: Int, loan_request_id: Int };

// ---------------------------------------------------------------------------------------------
// 2.1 Envelope

export const EnvelopeStatus = z.enum(ENVELOPE_STATUSES);
export type EnvelopeStatus = z.infer<typeof EnvelopeStatus>;

export const Envelope = z.looseObject({
  status: EnvelopeStatus,
  message: Text,
  // Absent on the real service's error replies (./vocabulary.ts isEnvelope).
  data: z.unknown().optional(),
  data1: z.unknown().optional(),
});
export type Envelope = z.infer<typeof Envelope>;

// ---------------------------------------------------------------------------------------------
// 2.2 User

/** The create reply carries no id (spec 2.2): a client finds the id through the user list. */
export const UserCreateReply = z.looseObject({
  firstname: Text,
  lastname: Text,
  email: Text,
  phone: Text,
  gender: Text,
  reference: Text,
  is_active: Bool,
  source: Text,
  ...STAMPED,
});
export type UserCreateReply = z.infer<typeof UserCreateReply>;

/** A list item has one of is_active or is_blacklisted (spec 2.2). */
export const UserListItem = z.looseObject({
  id: Int,
  org_id: Int,
  firstname: Text,
  lastname: Text,
  email: Text,
  phone: Text,
  gender: Text,
  is_active: OptionalBool,
  is_blacklisted: OptionalBool,
  ...STAMPED,
});
export type UserListItem = z.infer<typeof UserListItem>;

// ---------------------------------------------------------------------------------------------
// 2.4 Terms, and the approval terms of 4.19

export const Terms = z.looseObject({
  approved_amount: Num,
  rate: Num,
  tenure: Num,
  // Strings, not the request enums: a reply must not be refused because the API learnt a new value.
  tenured_in: Text,
  rate_type: Text,
  grace_period: Num,
  exclude_weekends: Bool,
  zero_interest: Bool,
  estimated_repayment: Num,
  note: Text,
});
export type Terms = z.infer<typeof Terms>;

// ---------------------------------------------------------------------------------------------
// 2.3 Loan request

export const LoanRequest = z.looseObject({
  id: Int,
  user_id: Int,
  org_id: Int,
  product_id: Int,
  product_name: Text,
  product_slug: Text,
  lender_name: Text,
  reference: Text,
  fullname: Text,
  amount: Num,
  purpose: Text,
  terms: Terms,
  status: Text,
  active: Bool,
  progress: OptionalText,
  lender_status: Text,
  user_status: Text,
  debit_mandate_next_step: Text,
  offer_letter: OptionalText,
  linker_ids: z.array(z.string()).nullable().optional(),
  linker_tokenized: OptionalBool,
  approved_by_id: OptionalInt,
  approved_by: OptionalText,
  disbursed_by: OptionalText,
  disbursed: OptionalBool,
  manually_disbursed: OptionalBool,
  declined_at: Timestamp,
  final_approval_date: Timestamp,
  approved_at: Timestamp,
  user_accepted_date: Timestamp,
  user_declined_date: Timestamp,
  archived_date: Timestamp,
  unarchived_at: Timestamp,
  disbursed_at: Timestamp,
  submitted_at: Timestamp,
  deleted_at: Timestamp,
  ...STAMPED,
});
export type LoanRequest = z.infer<typeof LoanRequest>;

export const LoanRequestPage = z.looseObject({
  loan_requests: z.array(LoanRequest),
  cursor: Int,
});
export type LoanRequestPage = z.infer<typeof LoanRequestPage>;

// ---------------------------------------------------------------------------------------------
// 2.7 Custom field

export const CustomField = z.looseObject({
  label: Text,
  field: Text,
  data_type: Text,
  string_value: Text,
  number_value: Num,
  boolean_value: Bool,
  is_money: Bool,
  is_custom: Bool,
  ...STAMPED,
});
export type CustomField = z.infer<typeof CustomField>;

/** The custom fields of a record: one schema for every record that carries them. */
const CustomFields = z.array(CustomField).nullable();
const WITH_CUSTOM_FIELDS = { has_custom_fields: Bool, custom_fields: CustomFields };

// ---------------------------------------------------------------------------------------------
// 2.5 Document

export const DocumentRecord = z.looseObject({
  ...ATTACHED,
  type: Text,
  title: Text,
  reference: Text,
  number: Text,
  document_url: Text,
  ...WITH_CUSTOM_FIELDS,
  created_at: Timestamp,
});
export type DocumentRecord = z.infer<typeof DocumentRecord>;

// ---------------------------------------------------------------------------------------------
// 2.6 Business information

export const BusinessRecord = z.looseObject({
  id: Int,
  user_id: Int,
  loan_request_id: Int,
  name: Text,
  org_id: Int,
  role: Text,
  industry: Text,
  description: Text,
  registered: Bool,
  registration_number: OptionalText,
  established_on: OptionalText,
  physical_location: OptionalBool,
  number_of_locations: OptionalInt,
  location_status: OptionalText,
  average_monthly_income: OptionalInt,
  last_twelve_months_income: OptionalInt,
  primary_payments_collection_method: OptionalText,
  number_of_employees: OptionalInt,
  monthly_salary_cost: OptionalInt,
  annual_rent_cost: OptionalInt,
  monthly_electricity_cost: OptionalInt,
  monthly_ads_cost: OptionalInt,
  monthly_marketing_cost: OptionalInt,
  ...WITH_CUSTOM_FIELDS,
  ...STAMPED,
});
export type BusinessRecord = z.infer<typeof BusinessRecord>;

// ---------------------------------------------------------------------------------------------
// 2.8 Bank details

export const BankDetailsRecord = z.looseObject({
  ...ATTACHED,
  credit_order_id: Int,
  code: Text,
  account_number: Text,
  account_name: Text,
  bank_name: Text,
  is_deleted: Bool,
  ...WITH_CUSTOM_FIELDS,
  ...STAMPED,
});
export type BankDetailsRecord = z.infer<typeof BankDetailsRecord>;

// ---------------------------------------------------------------------------------------------
// 2.9 Guarantor

/** Gender is not returned; relationship may be absent (spec 2.9). */
export const GuarantorRecord = z.looseObject({
  ...ATTACHED,
  firstname: Text,
  lastname: Text,
  email: Text,
  phone: Text,
  relationship: OptionalText,
  ...STAMPED,
});
export type GuarantorRecord = z.infer<typeof GuarantorRecord>;

// ---------------------------------------------------------------------------------------------
// 2.10 Employment information

export const EmploymentRecord = z.looseObject({
  id: Int,
  user_id: Int,
  loan_request_id: Int,
  status: Text,
  company_name: Text,
  company_address: Text,
  position: Text,
  salary: Int,
  manager: Text,
  manager_phone: Text,
  manager_email: Text,
  ...WITH_CUSTOM_FIELDS,
  ...STAMPED,
});
export type EmploymentRecord = z.infer<typeof EmploymentRecord>;

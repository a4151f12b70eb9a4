/**
 * The zod schemas of every resource in the Lending Origination API (spec section 2).
 *
 * Two kinds of schema live here:
 * - request schemas (what a client sends) validate strictly by type and strip unknown keys; the
 *   sandbox answers 400 with every failing field, and the CLI checks the same rules before sending;
 * - reply schemas (what the API returns) are loose objects: they accept fields they do not know,
 *   because the real API adds fields over time, but reject known fields of the wrong type.
 */
import * as z from 'zod';

/** The value the API uses for a timestamp that is not set. */
export const ZERO_TIMESTAMP = '0001-01-01T00:00:00Z';

/** ISO 8601 date-time with an optional fractional second and `Z` or a numeric offset. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;
export const Timestamp = z.string().regex(ISO_DATE_TIME, 'must be an ISO 8601 date-time');
export type Timestamp = z.infer<typeof Timestamp>;

/** A calendar date in the form the API uses for dates: yyyy-mm-dd, and a real day of the calendar. */
export const DateString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as yyyy-mm-dd')
  .refine((value) => {
    const parsed = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
  }, 'must be a real calendar date');

/** Phone numbers travel in the +234 form: +234 then the ten digits of the national number. */
export const PHONE_PATTERN = /^\+234\d{10}$/;
export const Phone = z.string().regex(PHONE_PATTERN, 'must be a phone number in the +234 form, e.g. +2348012345678');

const RequiredText = z.string().trim().min(1, 'must not be empty');
const Email = z.email('must be an e-mail address');
const Money = z.number().finite().positive('must be a positive amount');
const NonNegativeInt = z.number().int('must be a whole number').nonnegative('must not be negative');

// ---------------------------------------------------------------------------------------------
// 2.1 Envelope

export const EnvelopeStatus = z.enum(['success', 'error', 'exists', 'no-access']);
export type EnvelopeStatus = z.infer<typeof EnvelopeStatus>;

export const Envelope = z.looseObject({
  status: EnvelopeStatus,
  message: z.string(),
  data: z.unknown(),
  data1: z.unknown().optional(),
});
export type Envelope = z.infer<typeof Envelope>;

// ---------------------------------------------------------------------------------------------
// 2.2 User

export const Gender = RequiredText;

export const UserCreateRequest = z.object({
  firstname: RequiredText,
  lastname: RequiredText,
  email: Email,
  password: z.string().min(1, 'must not be empty'),
  phone: Phone,
  gender: Gender,
});
export type UserCreateRequest = z.infer<typeof UserCreateRequest>;

/** The create reply carries no id (spec 2.2): a client finds the id through the user list. */
export const UserCreateReply = z.looseObject({
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  phone: z.string(),
  gender: z.string(),
  reference: z.string(),
  is_active: z.boolean(),
  source: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type UserCreateReply = z.infer<typeof UserCreateReply>;

/** A list item has one of is_active or is_blacklisted (spec 2.2). */
export const UserListItem = z.looseObject({
  id: z.number().int(),
  org_id: z.number().int(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  phone: z.string(),
  gender: z.string(),
  is_active: z.boolean().optional(),
  is_blacklisted: z.boolean().optional(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type UserListItem = z.infer<typeof UserListItem>;

// ---------------------------------------------------------------------------------------------
// 2.4 Terms, and the approval terms of 4.19

export const TENURED_IN = ['months', 'days', 'weeks'] as const;
export const RATE_TYPES = ['simple-interest', 'compound-interest', 'fixed-amount'] as const;
/** The API's own spelling: `weekely`. The CLI accepts `weekly` and sends this. */
export const FREQUENCIES = ['daily', 'weekely', 'bi-weekly', 'monthly'] as const;

export const TenuredIn = z.enum(TENURED_IN);
export type TenuredIn = z.infer<typeof TenuredIn>;
export const RateType = z.enum(RATE_TYPES);
export type RateType = z.infer<typeof RateType>;
export const Frequency = z.enum(FREQUENCIES);
export type Frequency = z.infer<typeof Frequency>;

export const Terms = z.looseObject({
  approved_amount: z.number(),
  rate: z.number(),
  tenure: z.number(),
  // Strings, not the request enums: a reply must not be refused because the API learnt a new value.
  tenured_in: z.string(),
  rate_type: z.string(),
  grace_period: z.number(),
  exclude_weekends: z.boolean(),
  zero_interest: z.boolean(),
  estimated_repayment: z.number(),
  note: z.string(),
});
export type Terms = z.infer<typeof Terms>;

export const ApprovalTerms = z.object({
  approved_amount: Money,
  rate: z.number().finite().nonnegative('must not be negative'),
  tenure: z.number().int('must be a whole number').positive('must be at least 1'),
  tenured_in: TenuredIn,
  rate_type: RateType,
  frequency: Frequency,
  exclude_weekends: z.boolean().optional(),
  grace_period: NonNegativeInt.optional(),
  note: z.string().optional(),
});
export type ApprovalTerms = z.infer<typeof ApprovalTerms>;

// ---------------------------------------------------------------------------------------------
// 2.3 Loan request

export const LoanRequest = z.looseObject({
  id: z.number().int(),
  user_id: z.number().int(),
  org_id: z.number().int(),
  product_id: z.number().int(),
  product_name: z.string(),
  product_slug: z.string(),
  lender_name: z.string(),
  reference: z.string(),
  fullname: z.string(),
  amount: z.number(),
  purpose: z.string(),
  terms: Terms,
  status: z.string(),
  active: z.boolean(),
  progress: z.string().optional(),
  lender_status: z.string(),
  user_status: z.string(),
  debit_mandate_next_step: z.string(),
  offer_letter: z.string().optional(),
  linker_ids: z.array(z.string()).nullable().optional(),
  linker_tokenized: z.boolean().optional(),
  approved_by_id: z.number().int().optional(),
  approved_by: z.string().optional(),
  disbursed_by: z.string().optional(),
  disbursed: z.boolean().optional(),
  manually_disbursed: z.boolean().optional(),
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
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type LoanRequest = z.infer<typeof LoanRequest>;

export const LoanRequestCreate = z.object({
  amount: Money,
  purpose: RequiredText,
});
export type LoanRequestCreate = z.infer<typeof LoanRequestCreate>;

export const LoanRequestUpdate = z.object({
  purpose: RequiredText,
});
export type LoanRequestUpdate = z.infer<typeof LoanRequestUpdate>;

export const LoanRequestPage = z.looseObject({
  loan_requests: z.array(LoanRequest),
  cursor: z.number().int(),
});
export type LoanRequestPage = z.infer<typeof LoanRequestPage>;

// ---------------------------------------------------------------------------------------------
// 2.7 Custom field

export const CustomField = z.looseObject({
  label: z.string(),
  field: z.string(),
  data_type: z.string(),
  string_value: z.string(),
  number_value: z.number(),
  boolean_value: z.boolean(),
  is_money: z.boolean(),
  is_custom: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type CustomField = z.infer<typeof CustomField>;

// ---------------------------------------------------------------------------------------------
// 2.5 Document

export const DocumentRequest = z.object({
  type: RequiredText,
  title: RequiredText,
  number: RequiredText,
  // Where the document image lives: a web address, never ftp:, file: or javascript:.
  document_url: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }),
});
export type DocumentRequest = z.infer<typeof DocumentRequest>;

export const DocumentRecord = z.looseObject({
  id: z.number().int(),
  user_id: z.number().int(),
  org_id: z.number().int(),
  loan_request_id: z.number().int(),
  type: z.string(),
  title: z.string(),
  reference: z.string(),
  number: z.string(),
  document_url: z.string(),
  has_custom_fields: z.boolean(),
  custom_fields: z.array(CustomField).nullable(),
  created_at: Timestamp,
});
export type DocumentRecord = z.infer<typeof DocumentRecord>;

// ---------------------------------------------------------------------------------------------
// 2.6 Business information

const WholeNumberText = z.string().regex(/^\d+$/, 'must be a whole number written as text, e.g. "12"');

export const BusinessRequest = z.object({
  name: RequiredText,
  org_id: z.number().int('must be a whole number').positive('must be your organisation id'),
  role: RequiredText,
  industry: RequiredText,
  description: RequiredText,
  registered: z.boolean(),
  registration_number: z.string().optional(),
  established_on: DateString.optional(),
  /** A string in the request; the record returns it as a bool (spec 2.6). */
  physical_location: z.string().optional(),
  number_of_locations: NonNegativeInt.optional(),
  location_status: z.string().optional(),
  average_monthly_income: NonNegativeInt.optional(),
  last_twelve_months_income: NonNegativeInt.optional(),
  primary_payments_collection_method: z.string().optional(),
  /** A string in the request; the record returns it as an int (spec 2.6). */
  number_of_employees: WholeNumberText.optional(),
  monthly_salary_cost: NonNegativeInt.optional(),
  annual_rent_cost: NonNegativeInt.optional(),
  monthly_electricity_cost: NonNegativeInt.optional(),
  monthly_ads_cost: NonNegativeInt.optional(),
  monthly_marketing_cost: NonNegativeInt.optional(),
});
export type BusinessRequest = z.infer<typeof BusinessRequest>;

export const BusinessRecord = z.looseObject({
  id: z.number().int(),
  user_id: z.number().int(),
  loan_request_id: z.number().int(),
  name: z.string(),
  org_id: z.number().int(),
  role: z.string(),
  industry: z.string(),
  description: z.string(),
  registered: z.boolean(),
  registration_number: z.string().optional(),
  established_on: z.string().optional(),
  physical_location: z.boolean().optional(),
  number_of_locations: z.number().int().optional(),
  location_status: z.string().optional(),
  average_monthly_income: z.number().int().optional(),
  last_twelve_months_income: z.number().int().optional(),
  primary_payments_collection_method: z.string().optional(),
  number_of_employees: z.number().int().optional(),
  monthly_salary_cost: z.number().int().optional(),
  annual_rent_cost: z.number().int().optional(),
  monthly_electricity_cost: z.number().int().optional(),
  monthly_ads_cost: z.number().int().optional(),
  monthly_marketing_cost: z.number().int().optional(),
  has_custom_fields: z.boolean(),
  custom_fields: z.array(CustomField).nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type BusinessRecord = z.infer<typeof BusinessRecord>;

// ---------------------------------------------------------------------------------------------
// 2.8 Bank details

export const BankDetailsRequest = z.object({
  code: RequiredText,
  account_name: RequiredText,
  account_number: z.string().optional(),
  bank_name: z.string().optional(),
});
export type BankDetailsRequest = z.infer<typeof BankDetailsRequest>;

export const BankDetailsRecord = z.looseObject({
  id: z.number().int(),
  user_id: z.number().int(),
  org_id: z.number().int(),
  loan_request_id: z.number().int(),
  credit_order_id: z.number().int(),
  code: z.string(),
  account_number: z.string(),
  account_name: z.string(),
  bank_name: z.string(),
  is_deleted: z.boolean(),
  has_custom_fields: z.boolean(),
  custom_fields: z.array(CustomField).nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type BankDetailsRecord = z.infer<typeof BankDetailsRecord>;

// ---------------------------------------------------------------------------------------------
// 2.9 Guarantor

export const GuarantorRequest = z.object({
  firstname: RequiredText,
  lastname: RequiredText,
  gender: Gender,
  relationship: RequiredText,
  email: Email,
  phone: Phone,
});
export type GuarantorRequest = z.infer<typeof GuarantorRequest>;

/** Gender is not returned; relationship may be absent (spec 2.9). */
export const GuarantorRecord = z.looseObject({
  id: z.number().int(),
  user_id: z.number().int(),
  org_id: z.number().int(),
  loan_request_id: z.number().int(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  phone: z.string(),
  relationship: z.string().optional(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type GuarantorRecord = z.infer<typeof GuarantorRecord>;

// ---------------------------------------------------------------------------------------------
// 2.10 Employment information

export const EmploymentRequest = z.object({
  status: RequiredText,
  company_name: RequiredText,
  company_address: RequiredText,
  position: RequiredText,
  salary: NonNegativeInt,
  manager: RequiredText,
  manager_phone: RequiredText,
  manager_email: Email,
});
export type EmploymentRequest = z.infer<typeof EmploymentRequest>;

export const EmploymentRecord = z.looseObject({
  id: z.number().int(),
  user_id: z.number().int(),
  loan_request_id: z.number().int(),
  status: z.string(),
  company_name: z.string(),
  company_address: z.string(),
  position: z.string(),
  salary: z.number().int(),
  manager: z.string(),
  manager_phone: z.string(),
  manager_email: z.string(),
  has_custom_fields: z.boolean(),
  custom_fields: z.array(CustomField).nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type EmploymentRecord = z.infer<typeof EmploymentRecord>;

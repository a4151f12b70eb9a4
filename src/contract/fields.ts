/**
 * Every field of every request body (spec section 2 and 4), described once. From this table are
 * derived, never copied:
 * - the zod schema of each body (./field-schemas.ts: the kind and `required` give the rule), which
 *   the CLI checks before sending and the sandbox checks on arrival;
 * - each command's flags, their help, and the typed options its run function receives
 *   (src/commands/common/field-options.ts);
 * - how typed text becomes the value sent (the kind's parser, src/input/field-parsers.ts);
 * - the guided flow's questions (src/flows/loan-new/steps.ts), the column names a bulk file may
 *   use (src/bulk/), the values completion offers, and README's "Commands" section.
 *
 * Plain data, no zod: `--help` and completion read it without loading a schema library.
 */
import { type FREQUENCIES, FREQUENCY_CHOICES_SHOWN, RATE_TYPES, TENURED_IN } from './vocabulary.js';

/**
 * What a field's value is. Each kind has one parser for typed text and one zod rule:
 * - `text`: text, trimmed (required: not empty); `contact-phone`: text, and a Nigerian number in
 *   it is sent as +234…; `secret`: text kept as typed, never a flag.
 * - `email`, `phone` (Nigerian, sent as +234…), `url` (http or https), `date` (yyyy-mm-dd).
 * - `money` (more than 0, two decimals), `rate` (a number of 0 or more), `count` (a whole number
 *   of 1 or more), `whole` (a whole number of 0 or more), `whole-text` (one written as text, as
 *   the API wants `number_of_employees`), `org-id` (an id of 1 or more).
 * - `bool`: a switch (`--registered` / `--no-registered`); yes/no as text in `--data` or a file.
 * - `tenured-in`, `rate-type`, `frequency`: one of the API's words (aliases accepted).
 */
export type FieldKind =
  | 'text'
  | 'contact-phone'
  | 'secret'
  | 'email'
  | 'phone'
  | 'url'
  | 'date'
  | 'money'
  | 'rate'
  | 'count'
  | 'whole'
  | 'whole-text'
  | 'org-id'
  | 'bool'
  | 'tenured-in'
  | 'rate-type'
  | 'frequency';

export interface FieldDef {
  /** The body key, as the API spells it. */
  readonly name: string;
  readonly kind: FieldKind;
  readonly required?: true;
  /** The flag without its dashes, when it is not the name with `-` for `_` (`document_url` → `url`). */
  readonly flag?: string;
  /** The value's name in `--help` (`<name>`); default from the kind. */
  readonly value?: string;
  /** `--help` text for the flag. */
  readonly help: string;
  /** A required switch also gets `--no-NAME`, with this help. */
  readonly noHelp?: string;
  /** The guided flow's question, and what it shows after it (`e.g. 058`). */
  readonly question?: string;
  readonly hint?: string;
  /** Not a flag (the password comes through stdin or a prompt). */
  readonly noFlag?: true;
}

/** The values a field of a fixed set may take, as the operator types them (completion, help). */
export const FIELD_CHOICES: Partial<Record<FieldKind, readonly string[]>> = {
  'tenured-in': TENURED_IN,
  'rate-type': RATE_TYPES,
  frequency: FREQUENCY_CHOICES_SHOWN,
};

const USER = [
  {
    name: 'firstname',
    kind: 'text',
    required: true,
    value: 'name',
    help: 'first name',
    question: "Borrower's first name",
  },
  {
    name: 'lastname',
    kind: 'text',
    required: true,
    value: 'name',
    help: 'last name',
    question: "Borrower's last name",
  },
  {
    name: 'email',
    kind: 'email',
    required: true,
    help: 'e-mail address, unique in your organisation',
    question: "Borrower's e-mail",
  },
  { name: 'password', kind: 'secret', required: true, noFlag: true, help: "the borrower's password" },
  {
    name: 'phone',
    kind: 'phone',
    required: true,
    help: 'phone: +2348012345678, 2348012345678 or 08012345678 (sent as +234…)',
    question: "Borrower's phone",
  },
  {
    name: 'gender',
    kind: 'text',
    required: true,
    value: 'gender',
    help: 'gender, e.g. female or male',
    question: "Borrower's gender",
  },
] as const satisfies readonly FieldDef[];

const LOAN_REQUEST = [
  {
    name: 'amount',
    kind: 'money',
    required: true,
    help: 'amount requested, more than 0 (50000, 50,000 or 1250.50)',
    question: 'Amount requested',
  },
  { name: 'purpose', kind: 'text', required: true, help: 'what the loan is for', question: 'Purpose of the loan' },
] as const satisfies readonly FieldDef[];

const LOAN_REQUEST_UPDATE = [
  { name: 'purpose', kind: 'text', required: true, help: 'the new purpose' },
] as const satisfies readonly FieldDef[];

const DOCUMENT = [
  {
    name: 'type',
    kind: 'text',
    required: true,
    value: 'type',
    help: 'kind of document, e.g. passport, drivers-license, national-id',
    question: 'Document type',
    hint: 'e.g. passport, national-id',
  },
  { name: 'title', kind: 'text', required: true, help: 'title of the document', question: 'Document title' },
  {
    name: 'number',
    kind: 'text',
    required: true,
    help: 'number printed on the document',
    question: 'Number on the document',
  },
  {
    name: 'document_url',
    kind: 'url',
    required: true,
    flag: 'url',
    help: 'where the image of the document is (http or https)',
    question: "URL of the document's image",
  },
] as const satisfies readonly FieldDef[];

const WHOLE = 'whole number';

const BUSINESS = [
  { name: 'name', kind: 'text', required: true, help: 'name of the business', question: 'Business name' },
  {
    name: 'org_id',
    kind: 'org-id',
    required: true,
    help: "your organisation's id (default: the profile's, else the org_id of your user list)",
    question: 'Organisation id',
  },
  {
    name: 'role',
    kind: 'text',
    required: true,
    help: "the borrower's role in the business, e.g. owner",
    question: "Borrower's role in the business",
    hint: 'e.g. owner',
  },
  {
    name: 'industry',
    kind: 'text',
    required: true,
    help: 'industry, e.g. retail',
    question: 'Industry',
    hint: 'e.g. retail',
  },
  {
    name: 'description',
    kind: 'text',
    required: true,
    help: 'what the business does',
    question: 'What the business does',
  },
  {
    name: 'registered',
    kind: 'bool',
    required: true,
    help: 'the business is registered',
    noHelp: 'the business is not registered',
    question: 'Is the business registered?',
  },
  {
    name: 'registration_number',
    kind: 'text',
    help: 'registration number (e.g. RC number)',
    question: 'Registration number',
    hint: 'e.g. RC123456',
  },
  {
    name: 'established_on',
    kind: 'date',
    help: 'date the business was established (yyyy-mm-dd)',
    question: 'Established on',
    hint: 'yyyy-mm-dd',
  },
  {
    name: 'physical_location',
    kind: 'text',
    help: 'whether / where the business has a physical location',
    question: 'Physical location',
    hint: 'an address, or "online"',
  },
  { name: 'number_of_locations', kind: 'whole', help: `number of locations (${WHOLE})` },
  { name: 'location_status', kind: 'text', help: 'status of the location, e.g. rented or owned' },
  {
    name: 'average_monthly_income',
    kind: 'whole',
    help: `average monthly income (${WHOLE})`,
    question: 'Average monthly income',
    hint: WHOLE,
  },
  { name: 'last_twelve_months_income', kind: 'whole', help: `income over the last twelve months (${WHOLE})` },
  {
    name: 'primary_payments_collection_method',
    kind: 'text',
    help: 'how the business mostly collects payments, e.g. pos',
  },
  {
    name: 'number_of_employees',
    kind: 'whole-text',
    help: `number of employees (${WHOLE})`,
    question: 'Number of employees',
  },
  { name: 'monthly_salary_cost', kind: 'whole', help: `monthly salary cost (${WHOLE})` },
  { name: 'annual_rent_cost', kind: 'whole', help: `annual rent cost (${WHOLE})` },
  { name: 'monthly_electricity_cost', kind: 'whole', help: `monthly electricity cost (${WHOLE})` },
  { name: 'monthly_ads_cost', kind: 'whole', help: `monthly advertising cost (${WHOLE})` },
  { name: 'monthly_marketing_cost', kind: 'whole', help: `monthly marketing cost (${WHOLE})` },
] as const satisfies readonly FieldDef[];

const BANK_DETAILS = [
  { name: 'code', kind: 'text', required: true, help: 'bank code, e.g. 058', question: 'Bank code', hint: 'e.g. 058' },
  {
    name: 'account_name',
    kind: 'text',
    required: true,
    value: 'name',
    help: 'name on the account',
    question: 'Account name',
  },
  {
    name: 'account_number',
    kind: 'text',
    value: 'number',
    help: 'account number (optional)',
    question: 'Account number',
  },
  { name: 'bank_name', kind: 'text', value: 'name', help: 'name of the bank (optional)', question: 'Bank name' },
] as const satisfies readonly FieldDef[];

const GUARANTOR = [
  {
    name: 'firstname',
    kind: 'text',
    required: true,
    value: 'name',
    help: "guarantor's first name",
    question: "Guarantor's first name",
  },
  {
    name: 'lastname',
    kind: 'text',
    required: true,
    value: 'name',
    help: "guarantor's last name",
    question: "Guarantor's last name",
  },
  {
    name: 'gender',
    kind: 'text',
    required: true,
    value: 'gender',
    help: "guarantor's gender",
    question: "Guarantor's gender",
  },
  {
    name: 'relationship',
    kind: 'text',
    required: true,
    help: "the borrower's relationship to the guarantor, e.g. brother",
    question: 'Relationship to the borrower',
    hint: 'e.g. brother',
  },
  { name: 'email', kind: 'email', required: true, help: "guarantor's e-mail", question: "Guarantor's e-mail" },
  {
    name: 'phone',
    kind: 'phone',
    required: true,
    help: "guarantor's phone: +234…, 234… or 0… (sent as +234…)",
    question: "Guarantor's phone",
    hint: 'e.g. 08012345678',
  },
] as const satisfies readonly FieldDef[];

const EMPLOYMENT = [
  {
    name: 'status',
    kind: 'text',
    required: true,
    help: 'current employment status, e.g. employed',
    question: 'Employment status',
    hint: 'e.g. employed',
  },
  {
    name: 'company_name',
    kind: 'text',
    required: true,
    value: 'name',
    help: "employer's name",
    question: "Employer's name",
  },
  { name: 'company_address', kind: 'text', required: true, help: "employer's address", question: "Employer's address" },
  { name: 'position', kind: 'text', required: true, help: "the borrower's position", question: 'Position' },
  {
    name: 'salary',
    kind: 'whole',
    required: true,
    help: `monthly salary (${WHOLE})`,
    question: 'Monthly salary',
    hint: WHOLE,
  },
  { name: 'manager', kind: 'text', required: true, value: 'name', help: "manager's name", question: "Manager's name" },
  {
    name: 'manager_phone',
    kind: 'contact-phone',
    required: true,
    help: "manager's phone (a Nigerian number is sent as +234…)",
    question: "Manager's phone",
  },
  { name: 'manager_email', kind: 'email', required: true, help: "manager's e-mail", question: "Manager's e-mail" },
] as const satisfies readonly FieldDef[];

/** The terms of spec 4.19; `loan schedule` takes the same ones offline (bar the note). */
const APPROVAL = [
  { name: 'approved_amount', kind: 'money', required: true, help: 'amount approved, more than 0' },
  {
    name: 'rate',
    kind: 'rate',
    required: true,
    help: '% per --tenured-in unit (e.g. 5 or 12.5); for fixed-amount, the interest in currency',
  },
  {
    name: 'tenure',
    kind: 'count',
    required: true,
    help: 'length of the loan, in --tenured-in units (whole number)',
  },
  {
    name: 'tenured_in',
    kind: 'tenured-in',
    required: true,
    value: 'unit',
    help: 'unit of the tenure and the rate: months, weeks or days',
  },
  {
    name: 'rate_type',
    kind: 'rate-type',
    required: true,
    value: 'type',
    help: 'simple-interest, compound-interest or fixed-amount',
  },
  {
    name: 'frequency',
    kind: 'frequency',
    required: true,
    value: 'f',
    help: 'how often an instalment falls due: daily, weekly, bi-weekly or monthly',
  },
  {
    name: 'grace_period',
    kind: 'whole',
    value: 'days',
    help: 'days after the start before the schedule begins (default 0)',
  },
  {
    name: 'exclude_weekends',
    kind: 'bool',
    help: 'move a due date on Saturday or Sunday to the next Monday',
  },
  { name: 'note', kind: 'text', help: 'why the loan is approved on these terms' },
] as const satisfies readonly FieldDef[];

/** The body fields of each operation that carries a body, by operation key. */
export const BODY_FIELDS = {
  createUser: USER,
  createLoanRequest: LOAN_REQUEST,
  updateLoanRequest: LOAN_REQUEST_UPDATE,
  uploadDocument: DOCUMENT,
  addBusinessInfo: BUSINESS,
  addBankDetails: BANK_DETAILS,
  addGuarantor: GUARANTOR,
  addEmployment: EMPLOYMENT,
  approveLoanRequest: APPROVAL,
} as const satisfies Record<string, readonly FieldDef[]>;

export type BodyKey = keyof typeof BODY_FIELDS;
export type FieldsOf<K extends BodyKey> = (typeof BODY_FIELDS)[K];

/** The value each kind sends. */
interface KindValues {
  text: string;
  'contact-phone': string;
  secret: string;
  email: string;
  phone: string;
  url: string;
  date: string;
  money: number;
  rate: number;
  count: number;
  whole: number;
  'whole-text': string;
  'org-id': number;
  bool: boolean;
  'tenured-in': (typeof TENURED_IN)[number];
  'rate-type': (typeof RATE_TYPES)[number];
  frequency: (typeof FREQUENCIES)[number];
}

type Field<K extends BodyKey> = FieldsOf<K>[number];

/** The body an operation sends, as its fields describe it: `BodyOf<'addBankDetails'>`. */
export type BodyOf<K extends BodyKey> = {
  [F in Field<K> as F extends { required: true } ? F['name'] : never]: KindValues[F['kind']];
} & {
  [F in Field<K> as F extends { required: true } ? never : F['name']]?: KindValues[F['kind']];
};

/** A field's flag without dashes: `account_name` → `account-name`, unless the table names another. */
export function flagName(field: FieldDef): string {
  return field.flag ?? field.name.replaceAll('_', '-');
}

/** `--account-name`, or for a switch `--registered or --no-registered` (for messages). */
export function flagOf(field: FieldDef): string {
  const flag = `--${flagName(field)}`;
  return field.kind === 'bool' && field.required ? `${flag} or --no-${flagName(field)}` : flag;
}

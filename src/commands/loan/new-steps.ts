/**
 * The optional steps of `loan new` (bank details, employment, business information, guarantors,
 * documents): their questions, in order, each with the parser its flag uses and the contract's
 * schema of its field, and how a step's result is described on the review screen.
 */
import type { z } from 'zod';
import { bodySchema } from '../../contract/field-schemas.js';
import type { BankDetailsRecord, EmploymentRecord, GuarantorRecord } from '../../contract/schemas.js';
import { UsageError } from '../../errors.js';
import { normalisePhone, parseDate, parseEmail, parsePhone, parseText, parseWholeNumber } from '../../input/values.js';

export const STEP_IDS = ['bank', 'employment', 'business', 'guarantor', 'document'] as const;
export type StepId = (typeof STEP_IDS)[number];

/** What a question may know: the borrower's name (a default for the account name), the org id. */
export interface StepContext {
  borrowerName: string;
  orgId: number;
}

export interface StepField {
  key: string;
  label: string;
  /** Shown in the prompt after the label: `e.g. 058`. */
  hint?: string;
  /** A yes/no question (`registered`). */
  confirm?: boolean;
  parse?: (raw: string, source: string) => unknown;
  optional?: boolean;
  default?: (context: StepContext) => string | undefined;
  /** Asked only when this holds for the answers so far. */
  when?: (body: Record<string, unknown>) => boolean;
  /** Not asked: the flow knows it (the business's org id). */
  fixed?: (context: StepContext) => unknown;
}

export interface StepDef {
  id: StepId;
  /** The menu's name for it. */
  title: string;
  /** For sentences: "Added bank details to loan request 12." */
  what: string;
  endpoint: 'addBankDetails' | 'addEmployment' | 'addBusinessInfo' | 'addGuarantor' | 'uploadDocument';
  schema: z.ZodObject;
  /** Offered until done once (the API keeps one employment, one business record). Others repeat. */
  once: boolean;
  /**
   * The API can read this step's records back (bank details, employment, guarantors), so
   * `--resume` knows whether it was added. Business information and documents it does not show
   * back: `--resume` cannot know, and says so. (Never the progress string: the spec does not
   * define its values, so the real service's are unknown.)
   */
  shownBack: boolean;
  fields: StepField[];
  /** One line for the review screen and the summary, from the body sent. */
  describe(body: Record<string, unknown>): string;
  /** The id of the record the reply created, where the reply shows it. */
  createdId?(data: unknown): number | undefined;
}

const text = parseText;
const whole = parseWholeNumber;

/** A manager's phone is any text to the API; a Nigerian number is sent in the +234 form. */
const managerPhone = (raw: string, source: string) => normalisePhone(raw) ?? parseText(raw, source);

/** `number_of_employees` is digits as text in the request (spec 2.6). */
const employees = (raw: string, source: string) => String(parseWholeNumber(raw, source));

/** The sandbox (and any sane API) wants an http(s) URL for a document's image. */
export function parseHttpUrl(raw: string, source: string): string {
  const value = raw.trim();
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(`${source} must be an http or https URL (got ${JSON.stringify(raw)}).`);
  }
  return value;
}

/** The newest record (highest id) of a list reply: the one just added. */
function newestId(data: unknown): number | undefined {
  if (!Array.isArray(data)) return undefined;
  const ids = (data as Array<{ id?: unknown }>).map((record) => record.id).filter((id) => typeof id === 'number');
  return ids.length > 0 ? Math.max(...(ids as number[])) : undefined;
}

const recordId = (data: unknown) =>
  typeof (data as { id?: unknown } | null)?.id === 'number' ? (data as { id: number }).id : undefined;

const join = (...parts: unknown[]) =>
  parts.filter((part) => part !== undefined && part !== '' && part !== null).join(' · ');

export const STEPS: readonly StepDef[] = [
  {
    id: 'bank',
    title: 'Bank details',
    what: 'bank details',
    endpoint: 'addBankDetails',
    schema: bodySchema('addBankDetails'),
    once: true,
    shownBack: true,
    fields: [
      { key: 'code', label: 'Bank code', hint: 'e.g. 058', parse: text },
      { key: 'account_name', label: 'Account name', parse: text, default: (context) => context.borrowerName },
      { key: 'account_number', label: 'Account number', parse: text, optional: true },
      { key: 'bank_name', label: 'Bank name', parse: text, optional: true },
    ],
    describe: (body) => join(body.code, body.account_name, body.account_number, body.bank_name),
  },
  {
    id: 'employment',
    title: 'Employment',
    what: 'employment information',
    endpoint: 'addEmployment',
    schema: bodySchema('addEmployment'),
    once: true,
    shownBack: true,
    fields: [
      { key: 'status', label: 'Employment status', hint: 'e.g. employed', parse: text },
      { key: 'company_name', label: "Employer's name", parse: text },
      { key: 'company_address', label: "Employer's address", parse: text },
      { key: 'position', label: 'Position', parse: text },
      { key: 'salary', label: 'Monthly salary', hint: 'whole number', parse: whole },
      { key: 'manager', label: "Manager's name", parse: text },
      { key: 'manager_phone', label: "Manager's phone", parse: managerPhone },
      { key: 'manager_email', label: "Manager's e-mail", parse: parseEmail },
    ],
    describe: (body) => join(`${body.position} at ${body.company_name}`, body.status),
    createdId: recordId,
  },
  {
    id: 'business',
    title: 'Business information',
    what: 'business information',
    endpoint: 'addBusinessInfo',
    schema: bodySchema('addBusinessInfo'),
    once: true,
    shownBack: false,
    fields: [
      { key: 'name', label: 'Business name', parse: text },
      { key: 'org_id', label: 'Organisation id', fixed: (context) => context.orgId },
      { key: 'role', label: "Borrower's role in the business", hint: 'e.g. owner', parse: text },
      { key: 'industry', label: 'Industry', hint: 'e.g. retail', parse: text },
      { key: 'description', label: 'What the business does', parse: text },
      { key: 'registered', label: 'Is the business registered?', confirm: true },
      {
        key: 'registration_number',
        label: 'Registration number',
        hint: 'e.g. RC123456',
        parse: text,
        optional: true,
        when: (body) => body.registered === true,
      },
      { key: 'established_on', label: 'Established on', hint: 'yyyy-mm-dd', parse: parseDate, optional: true },
      {
        key: 'physical_location',
        label: 'Physical location',
        hint: 'an address, or "online"',
        parse: text,
        optional: true,
      },
      { key: 'number_of_employees', label: 'Number of employees', parse: employees, optional: true },
      {
        key: 'average_monthly_income',
        label: 'Average monthly income',
        hint: 'whole number',
        parse: whole,
        optional: true,
      },
    ],
    describe: (body) => join(`${body.name} (${body.industry})`, body.registered ? 'registered' : 'not registered'),
    createdId: recordId,
  },
  {
    id: 'guarantor',
    title: 'Guarantor',
    what: 'a guarantor',
    endpoint: 'addGuarantor',
    schema: bodySchema('addGuarantor'),
    once: false,
    shownBack: true,
    fields: [
      { key: 'firstname', label: "Guarantor's first name", parse: text },
      { key: 'lastname', label: "Guarantor's last name", parse: text },
      { key: 'gender', label: "Guarantor's gender", parse: text },
      { key: 'relationship', label: 'Relationship to the borrower', hint: 'e.g. brother', parse: text },
      { key: 'email', label: "Guarantor's e-mail", parse: parseEmail },
      { key: 'phone', label: "Guarantor's phone", hint: 'e.g. 08012345678', parse: parsePhone },
    ],
    describe: (body) => join(`${body.firstname} ${body.lastname} (${body.relationship})`, body.phone),
    createdId: newestId,
  },
  {
    id: 'document',
    title: 'Document',
    what: 'a document',
    endpoint: 'uploadDocument',
    schema: bodySchema('uploadDocument'),
    once: false,
    shownBack: false,
    fields: [
      { key: 'type', label: 'Document type', hint: 'e.g. passport, national-id', parse: text },
      { key: 'title', label: 'Document title', parse: text },
      { key: 'number', label: 'Number on the document', parse: text },
      { key: 'document_url', label: "URL of the document's image", parse: parseHttpUrl },
    ],
    describe: (body) => join(`${body.type} ${body.number}`, body.title),
    createdId: newestId,
  },
];

/**
 * Review lines for what a loan request already had when the flow picked it up (`--resume`). The
 * API has no GET for business information or documents, so those two have none.
 */
export const describeExisting = {
  bank: (record: BankDetailsRecord) => join(record.code, record.account_name, record.account_number, record.bank_name),
  employment: (record: EmploymentRecord) => join(`${record.position} at ${record.company_name}`, record.status),
  guarantor: (record: GuarantorRecord) =>
    join(
      `${record.firstname} ${record.lastname}${record.relationship ? ` (${record.relationship})` : ''}`,
      record.phone,
    ),
};

/**
 * The optional steps of `loan new` (bank details, employment, business information, guarantors,
 * documents): their questions, in order — the contract's questions of the operation's fields
 * (src/contract/fields.ts) with what only the flow knows (a default, a condition, a value it has) —
 * and how a step's result is described on the review screen.
 */
import { BODY_FIELDS, type FieldDef } from '../../contract/fields.js';
import type { BankDetailsRecord, EmploymentRecord, GuarantorRecord } from '../../contract/schemas.js';

const STEP_IDS = ['bank', 'employment', 'business', 'guarantor', 'document'] as const;
export type StepId = (typeof STEP_IDS)[number];

/** What a question may know: the borrower's name (a default for the account name), the org id. */
export interface StepContext {
  borrowerName: string;
  orgId: number;
}

/**
 * One question of a step: a field of the contract (its question, hint, parser, schema and whether
 * it is required all come from src/contract/fields.ts; a `bool` field is a yes/no question), and
 * what only the flow knows about it.
 */
interface StepField {
  def: FieldDef;
  default?: (context: StepContext) => string | undefined;
  /** Asked only when this holds for the answers so far. */
  when?: (body: Record<string, unknown>) => boolean;
  /** Not asked: the flow knows it (the business's org id). */
  fixed?: (context: StepContext) => unknown;
}

type StepKey = 'addBankDetails' | 'addEmployment' | 'addBusinessInfo' | 'addGuarantor' | 'uploadDocument';

type Overrides = Readonly<Record<string, Omit<StepField, 'def'>>>;

/** A step's questions: every field of its operation that the contract gives a question, in order. */
function questions(key: StepKey, overrides: Overrides = {}): StepField[] {
  const fields: readonly FieldDef[] = BODY_FIELDS[key];
  return fields.filter((def) => def.question !== undefined).map((def) => ({ def, ...overrides[def.name] }));
}

export interface StepDef {
  id: StepId;
  /** The menu's name for it. */
  title: string;
  /** For sentences: "Added bank details to loan request 12." */
  what: string;
  endpoint: StepKey;
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
    once: true,
    shownBack: true,
    fields: questions('addBankDetails', { account_name: { default: (context) => context.borrowerName } }),
    describe: (body) => join(body.code, body.account_name, body.account_number, body.bank_name),
  },
  {
    id: 'employment',
    title: 'Employment',
    what: 'employment information',
    endpoint: 'addEmployment',
    once: true,
    shownBack: true,
    fields: questions('addEmployment'),
    describe: (body) => join(`${body.position} at ${body.company_name}`, body.status),
    createdId: recordId,
  },
  {
    id: 'business',
    title: 'Business information',
    what: 'business information',
    endpoint: 'addBusinessInfo',
    once: true,
    shownBack: false,
    fields: questions('addBusinessInfo', {
      org_id: { fixed: (context) => context.orgId },
      registration_number: { when: (body) => body.registered === true },
    }),
    describe: (body) => join(`${body.name} (${body.industry})`, body.registered ? 'registered' : 'not registered'),
    createdId: recordId,
  },
  {
    id: 'guarantor',
    title: 'Guarantor',
    what: 'a guarantor',
    endpoint: 'addGuarantor',
    once: false,
    shownBack: true,
    fields: questions('addGuarantor'),
    describe: (body) => join(`${body.firstname} ${body.lastname} (${body.relationship})`, body.phone),
    createdId: newestId,
  },
  {
    id: 'document',
    title: 'Document',
    what: 'a document',
    endpoint: 'uploadDocument',
    once: false,
    shownBack: false,
    fields: questions('uploadDocument'),
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

/**
 * What a field of a request body is (spec section 2 and 4). Each field is described once, in its
 * operation's row (`body` in ./table/, beside its row);
 * BODY_FIELDS gathers them by operation key. From them are derived, never copied:
 * - the zod schema of each body (./field-schemas.ts: the kind and `required` give the rule), which
 *   the CLI checks before sending and the sandbox checks on arrival;
 * - each command's flags, their help, and the typed options its run function receives
 *   (src/commands/common/field-options.ts);
 * - how typed text becomes the value sent (the kind's parser, src/input/field-parsers.ts);
 * - the guided flow's questions (src/flows/loan-new/steps.ts), the column names a bulk file may
 *   use (src/bulk/), the values completion offers, and the command reference (docs/reference/).
 *
 * Plain data, no zod: `--help` and completion read it without loading a schema library.
 */
import { OPERATIONS } from './operations.js';
import { FREQUENCIES, FREQUENCY_CHOICES_SHOWN, RATE_TYPES, TENURED_IN } from './vocabulary.js';

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
  /** A text's most characters: checked by the CLI and the sandbox, said in `--help` and the OpenAPI document. */
  readonly maxLength?: number;
  /** Not a flag (the password comes through stdin or a prompt). */
  readonly noFlag?: true;
  /**
   * A realistic value (`Ada Obi`), for the OpenAPI document's examples: its request body shows it,
   * and the journey its replies are recorded from (src/sandbox/openapi-example-flow.ts) sends it.
   * Without one a required field sends its kind's sample (sampleValue), an optional one nothing.
   */
  readonly example?: string | number | boolean;
}

/** The values a field of a fixed set may take, as the operator types them (completion, help). */
export const FIELD_CHOICES: Partial<Record<FieldKind, readonly string[]>> = {
  'tenured-in': TENURED_IN,
  'rate-type': RATE_TYPES,
  frequency: FREQUENCY_CHOICES_SHOWN,
};

/** The operations whose row lists body fields (`body`). */
type RowWithBody = Extract<(typeof OPERATIONS)[number], { body: readonly FieldDef[] }>;
export type BodyKey = RowWithBody['key'];
export type FieldsOf<K extends BodyKey> = Extract<RowWithBody, { key: K }>['body'];

/** The body fields of each operation that carries a body, by operation key: the rows' `body`, gathered. */
export const BODY_FIELDS = Object.fromEntries(
  OPERATIONS.flatMap((row) => ('body' in row ? [[row.key, row.body]] : [])),
) as { readonly [K in BodyKey]: FieldsOf<K> };

/**
 * A valid value of each kind, for a field that has no example of its own: the tests' sample
 * bodies and the OpenAPI examples' journey both take it from here. A new kind does not compile
 * until it has one. A text shows the field's hint (`e.g. owner` → `owner`) where it has one; money
 * is 50000, so a sample approval (`count` 3 of `rate` 5) is within it; an e-mail carries `serial`
 * (a borrower's must be unique in its organisation); `org-id` is the caller's organisation.
 */
const KIND_SAMPLES: { [K in FieldKind]: (field: FieldDef, facts: SampleFacts) => KindValues[K] } = {
  text: (field) => field.hint?.match(/^e\.g\. (.+)$/)?.[1] ?? `sample ${field.name.replaceAll('_', ' ')}`,
  'contact-phone': () => '+2348011111111',
  secret: () => 'correct horse battery staple',
  email: (field, { serial }) => `${field.name}.${serial}@example.com`,
  phone: () => '+2348098765432',
  url: () => 'https://files.example.com/sample.jpg',
  date: () => '2019-03-01',
  money: () => 50000,
  rate: () => 5,
  count: () => 3,
  whole: () => 12,
  'whole-text': () => '12',
  'org-id': (_field, { orgId }) => orgId,
  bool: () => true,
  'tenured-in': () => TENURED_IN[0],
  'rate-type': () => RATE_TYPES[0],
  frequency: () => FREQUENCIES[FREQUENCIES.length - 1] as (typeof FREQUENCIES)[number],
};

/** What a sample value may depend on: the caller's organisation, and a number that keeps e-mails apart. */
export interface SampleFacts {
  orgId: number;
  serial: number;
}

/** A valid value of the field's kind (KIND_SAMPLES), whatever its example. */
export function sampleValue(field: FieldDef, facts: SampleFacts): unknown {
  return KIND_SAMPLES[field.kind](field, facts);
}

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

/** The field's `--help` text, with its length rule when it has one. */
export function fieldHelp(field: FieldDef): string {
  return field.maxLength === undefined ? field.help : `${field.help} (${lengthRule(field.maxLength)})`;
}

/** `at most 500 characters`: the rule as the help and the error message say it. */
export function lengthRule(maxLength: number): string {
  return `at most ${maxLength} characters`;
}

/** A field's flag without dashes: `account_name` → `account-name`, unless the table names another. */
export function flagName(field: FieldDef): string {
  return field.flag ?? field.name.replaceAll('_', '-');
}

/** `--account-name` → `accountName`: the key commander keeps a flag's value under. */
export function optionKeyOf(flag: string): string {
  return flag.replace(/^--/, '').replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** `--account-name`, or for a switch `--registered or --no-registered` (for messages). */
export function flagOf(field: FieldDef): string {
  const flag = `--${flagName(field)}`;
  return field.kind === 'bool' && field.required ? `${flag} or --no-${flagName(field)}` : flag;
}

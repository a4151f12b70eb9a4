/**
 * The contract's words, patterns and ranges that need no schema library: the envelope's statuses,
 * the API's enumerations, the patterns of its values and the ranges of its numbers (read by the
 * contract's schemas, the sandbox's checks and the CLI's flag parsers, so a flag parser does not
 * load zod either).
 *
 * They live apart from ./schemas.ts (zod) so that a command that only reads a reply — `loanctl
 * user exists`, a script's most frequent call — never loads zod: loading zod and building the
 * contract's schemas is ~13 ms of a start-up whose whole budget is ~37 ms (bench/README.md).
 * ./schemas.ts builds its schemas from these, so the two cannot disagree.
 */

/** The API's message for a failure it does not explain (spec §7); the sandbox's unexpected errors say it too. */
export const SOMETHING_WENT_WRONG = 'Something went wrong. Please try again';

/** The value the API uses for a timestamp that is not set. */
export const ZERO_TIMESTAMP = '0001-01-01T00:00:00Z';

/** True for a timestamp that holds a time: not absent, empty, or the zero timestamp in any precision or zone. */
export function isSetTimestamp(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && !value.startsWith('0001-01-01');
}

/** ISO 8601 date-time with an optional fractional second and `Z` or a numeric offset. */
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * The instant an API timestamp names, or undefined when it is not one. The real service writes
 * nanoseconds and numeric offsets (`2022-02-11T09:10:25.815412395+01:00`): that is outside
 * ECMAScript's own date-time format (milliseconds, `±HH:mm`), where `Date.parse` is left to each
 * engine. So the text is brought to that format first: the fraction cut to milliseconds (not
 * rounded: 59.9996 s stays in its minute), the offset given its colon.
 */
export function parseTimestamp(value: string): Date | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}):?(\d{2})?$/.exec(value);
  if (!match) return undefined;
  const [, dateTime, fraction = '', zone, zoneMinutes] = match;
  if (zone !== 'Z' && zoneMinutes === undefined) return undefined;
  const millis = fraction.slice(0, 3).padEnd(3, '0');
  const date = new Date(`${dateTime}.${millis}${zone === 'Z' ? 'Z' : `${zone}:${zoneMinutes}`}`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A calendar date as the API writes dates: yyyy-mm-dd. */
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A yyyy-mm-dd date that is a real day of the calendar (not 2024-02-30). */
export function isCalendarDay(value: string): boolean {
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
}

/**
 * An e-mail address as the contract takes one: zod's own "practical" pattern, kept here so that the
 * CLI's query check reads it without loading zod's core (~90 KB of a network command's start-up);
 * the zod schemas (./field-schemas.ts) are given it, so both check with this one pattern.
 */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** Phone numbers travel in the +234 form: +234 then the ten digits of the national number. */
export const PHONE_PATTERN = /^\+234\d{10}$/;

/** What a phone may have between its digits, and is read without: spaces, dashes, brackets, dots. */
const PHONE_SEPARATOR = '[\\s\\-().]';
const PHONE_SEPARATORS = new RegExp(PHONE_SEPARATOR, 'g');

/**
 * A phone as typed, in its one normal form (PHONE_PATTERN's), else undefined. Accepts
 * `+234XXXXXXXXXX`, `234XXXXXXXXXX` and `0XXXXXXXXXX`, with spaces, dashes, dots or brackets between
 * digits. `user create`, the bulk files, `user find --phone` and the sandbox dashboard's search all
 * read phones with it.
 */
export function normalisePhone(raw: string): string | undefined {
  // Already the normal form, as the API lists most phones: a walk of the user list reads a million.
  if (PHONE_PATTERN.test(raw)) return raw;
  const compact = raw.trim().replace(PHONE_SEPARATORS, '');
  const national =
    /^\+234(\d{10})$/.exec(compact)?.[1] ?? /^234(\d{10})$/.exec(compact)?.[1] ?? /^0(\d{10})$/.exec(compact)?.[1];
  return national === undefined ? undefined : `+234${national}`;
}

/**
 * A phone as two phones are compared (a look-up's and a borrower's, the borrower index's column):
 * its one normal form when it has one, else as given; '' for no phone.
 */
export function phoneKey(phone: unknown): string {
  if (typeof phone !== 'string') return '';
  return normalisePhone(phone) ?? phone;
}

/**
 * A Nigerian mobile number that lost its leading 0, as a spreadsheet drops it from a number
 * (`8031535642`): ten digits starting 7, 8 or 9. Returned with its 0 (`08031535642`), else undefined.
 */
export function withLostZero(raw: string): string | undefined {
  const compact = raw.trim().replace(PHONE_SEPARATORS, '');
  return /^[789]\d{9}$/.test(compact) ? `0${compact}` : undefined;
}

/**
 * A phone looked for, in its normal form: any form normalisePhone reads, or one that lost its
 * leading 0 (a search restores it, as a bulk file does). Undefined when the text is no phone.
 */
export function phoneLookedFor(raw: string): string | undefined {
  return normalisePhone(raw) ?? normalisePhone(withLostZero(raw) ?? '');
}

export const ENVELOPE_STATUSES = ['success', 'error', 'exists', 'no-access'] as const;
type EnvelopeStatus = (typeof ENVELOPE_STATUSES)[number];

/**
 * The envelope every reply is wrapped in (spec 2.1); other keys are kept. `data` may be absent:
 * the real service's published error replies carry only `status` and `message`.
 */
export interface Envelope {
  status: EnvelopeStatus;
  message: string;
  data?: unknown;
  data1?: unknown;
  [key: string]: unknown;
}

/**
 * True for a JSON value that is the API's envelope: an object with a known status and a string
 * message. `data` and `data1` may be absent, null or anything else: the real service's examples
 * answer errors as `{"status":"error","message":"Product ID is required"}`, with no `data` key.
 * ./schemas.ts `Envelope` accepts the same (test/unit/operations.test.ts).
 */
export function isEnvelope(json: unknown): json is Envelope {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
  const { status, message } = json as Record<string, unknown>;
  return (ENVELOPE_STATUSES as readonly unknown[]).includes(status) && typeof message === 'string';
}

/** Whether `value` is one of the words of `allowed` (TENURED_IN, RATE_TYPES, …), typed as that word. */
export function isOneOf<Word extends string>(value: unknown, allowed: readonly Word[]): value is Word {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value);
}

export const TENURED_IN = ['months', 'days', 'weeks'] as const;
export type TenuredIn = (typeof TENURED_IN)[number];
export const RATE_TYPES = ['simple-interest', 'compound-interest', 'fixed-amount'] as const;
export type RateType = (typeof RATE_TYPES)[number];
/** `weekely` is the API's own spelling (spec 2.4). */
export const FREQUENCIES = ['daily', 'weekely', 'bi-weekly', 'monthly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
/** The frequencies as an operator types them; `weekly` is sent as the API's `weekely` (spec 4.19). */
export const FREQUENCY_CHOICES_SHOWN = ['daily', 'weekly', 'bi-weekly', 'monthly'] as const;

/** A frequency as an operator reads and types it: `weekely` is `weekly`. */
export function frequencyWord(frequency: Frequency): string {
  return FREQUENCY_CHOICES_SHOWN[FREQUENCIES.indexOf(frequency)] ?? frequency;
}

/*
 * The ranges of the API's numbers. Every number here is held exactly by a double and printed by
 * JavaScript without an exponent, so what is accepted is stored, and shown, exactly as written.
 */

/** Money (`amount`, `approved_amount`): naira with at most two decimals (kobo). */
export const MONEY_MIN = 0.01;
/** One trillion naira: far above any loan, and kobo stay exact integers in a double up to ~90 trillion. */
export const MONEY_MAX = 1_000_000_000_000;
export const MONEY_PROBLEM = `must be an amount from ${MONEY_MIN} to ${MONEY_MAX} with at most two decimals`;

/** True for a number of naira the API accepts as money. */
export function isMoney(value: unknown): value is number {
  return (
    typeof value === 'number' &&
    value >= MONEY_MIN &&
    value <= MONEY_MAX &&
    // The shortest text that reads back as the value: `0.29`, never `0.28999…`; in this range never
    // an exponent. So this counts the decimals the sender wrote.
    /^\d+(\.\d{1,2})?$/.test(String(value))
  );
}

/**
 * Whole numbers in a body (counts, whole-naira incomes and costs, salary, grace period): 0 to the
 * money ceiling. `number_of_employees`, digits as text, is read against the same range.
 * @alias a name of its own for the same ceiling, where a whole number is meant
 */
export const WHOLE_MAX = MONEY_MAX;
export const WHOLE_PROBLEM = `must be a whole number from 0 to ${WHOLE_MAX}`;

/** True for digits (as text) whose number is within 0…WHOLE_MAX. */
export function isWholeText(value: string): boolean {
  return /^\d+$/.test(value) && Number(value) <= WHOLE_MAX;
}

/**
 * A whole number in a query (`pages`, `limit`, `cursor`): ASCII digits only, so `0x10`, `1e3`,
 * ` 7 ` or `` are refused rather than read as 16, 1000, 7 or 0; at most the largest exact integer.
 * The problem with `text` as the one message, or undefined when it is fine.
 */
export function queryWholeProblem(text: string, min: 0 | 1): string | undefined {
  if (!/^\d+$/.test(text)) return 'must be a whole number written with digits';
  const value = Number(text);
  if (value < min) return 'must be at least 1';
  if (value > Number.MAX_SAFE_INTEGER) return `must be at most ${Number.MAX_SAFE_INTEGER}`;
  return undefined;
}

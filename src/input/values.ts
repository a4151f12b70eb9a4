/**
 * Parsing and normalising single values the operator types on the command line.
 *
 * Every parser takes the raw text and the flag it came from, and either returns the value to send
 * or throws a UsageError whose one line names the flag, says what is wrong and shows an example.
 * Nothing here touches the network: these run before anything is sent.
 */

import {
  DATE_PATTERN,
  FREQUENCIES,
  FREQUENCY_CHOICES_SHOWN,
  type Frequency,
  isCalendarDay,
  isMoney,
  MONEY_MAX,
  MONEY_MIN,
  normalisePhone,
  phoneLookedFor,
  RATE_TYPES,
  TENURED_IN,
  withLostZero,
} from '../contract/vocabulary.js';
import { UsageError } from '../errors.js';

/** `--flag` or, for a field that only came from `--data`, `field "name" of --data`. */
export type Source = string;

function fail(source: Source, problem: string, got: string | undefined, example?: string): never {
  const shown = got === undefined ? '' : ` (got ${JSON.stringify(got)})`;
  const hint = example && source.startsWith('--') ? `For example: ${source} ${example}` : undefined;
  throw new UsageError(`${source} ${problem}${shown}.`, hint);
}

/** A Nigerian phone number in any accepted form, sent as `+234` and the ten national digits. */
export function parsePhone(raw: string, source: Source): string {
  const phone = normalisePhone(raw);
  if (phone === undefined) {
    const restored = withLostZero(raw);
    if (restored !== undefined) {
      throw new UsageError(
        `${source} must be a Nigerian phone number: +234, 234 or 0 and 10 digits (got ${JSON.stringify(raw)}); did you mean ${restored}? A spreadsheet drops the leading 0 of a number.`,
      );
    }
    fail(
      source,
      'must be a Nigerian phone number: +234 and 10 digits, 234 and 10 digits, or 0 and 10 digits',
      raw,
      '08012345678',
    );
  }
  return phone;
}

/**
 * A phone looked for (`user find --phone`), read as the dashboard's search reads it
 * (phoneLookedFor): any form parsePhone reads, and also a number that lost its leading 0, since
 * a look-up stores nothing. Else parsePhone's error.
 */
export function parsePhoneLookedFor(raw: string, source: Source): string {
  return phoneLookedFor(raw) ?? parsePhone(raw, source);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A plain e-mail address, trimmed. The contract's schema checks it again before sending. */
export function parseEmail(raw: string, source: Source): string {
  const email = raw.trim();
  if (!EMAIL.test(email)) fail(source, 'must be an e-mail address', raw, 'ada@example.com');
  return email;
}

/** Digits with an optional decimal part; `,` and `_` may group thousands (`50,000`, `1_000_000`). */
const DECIMAL = /^\d+(\.\d+)?$/;

function decimalText(raw: string): string {
  const trimmed = raw.trim();
  // Grouping marks only between digits, so `,5` or `5,` are not silently read as 5.
  return /^\d{1,3}([,_]\d{3})+(\.\d+)?$/.test(trimmed) ? trimmed.replace(/[,_]/g, '') : trimmed;
}

/**
 * An amount of money within the contract's range (../contract/vocabulary.ts): `50000`, `50,000`,
 * `1250.50`. Rejects `abc`, `-5`, `0`, `0.001`, `1e400`, and anything above the ceiling.
 */
export function parseAmount(raw: string, source: Source): number {
  const text = decimalText(raw);
  if (!DECIMAL.test(text)) fail(source, 'must be a positive amount written with digits', raw, '50000');
  const value = Number(text);
  if (value > MONEY_MAX) fail(source, `is too large: the most is ${MONEY_MAX}`, raw);
  if (value === 0) fail(source, 'must be more than 0', raw, '50000');
  if (value < MONEY_MIN) fail(source, `must be at least ${MONEY_MIN}`, raw, '1250.50');
  if (!isMoney(value)) fail(source, 'must have at most two decimals', raw, '1250.50');
  return value;
}

/** A number that may be 0 (an interest rate): `0`, `12.5`. */
export function parseNonNegativeNumber(raw: string, source: Source): number {
  const text = decimalText(raw);
  if (!DECIMAL.test(text)) fail(source, 'must be a number of 0 or more written with digits', raw, '12.5');
  const value = Number(text);
  if (!Number.isFinite(value) || value > Number.MAX_SAFE_INTEGER) fail(source, 'is too large', raw);
  return value;
}

/** A whole number of 0 or more (`--salary`, `--grace-period`). */
export function parseWholeNumber(raw: string, source: Source): number {
  const text = decimalText(raw);
  if (!/^\d+$/.test(text)) fail(source, 'must be a whole number of 0 or more', raw, '12');
  const value = Number(text);
  if (!Number.isSafeInteger(value)) fail(source, 'is too large', raw);
  return value;
}

/** A whole number of 1 or more (`--tenure`, `--limit`, `--page`). */
export function parsePositiveInt(raw: string, source: Source): number {
  const value = parseWholeNumber(raw, source);
  if (value < 1) fail(source, 'must be at least 1', raw);
  return value;
}

/** The id of a record (a loan request, a user): a whole number of 1 or more. */
export function parseId(raw: string, source: Source): number {
  const text = raw.trim();
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < 1) {
    fail(source, 'must be an id: a whole number of 1 or more', raw, '172');
  }
  return Number(text);
}

/** A real calendar date written yyyy-mm-dd. */
export function parseDate(raw: string, source: Source): string {
  const text = raw.trim();
  if (!DATE_PATTERN.test(text) || !isCalendarDay(text))
    fail(source, 'must be a real date written yyyy-mm-dd', raw, '2024-01-31');
  return text;
}

/** Text that must not be empty once trimmed. */
export function parseText(raw: string, source: Source): string {
  const text = raw.trim();
  if (text === '') fail(source, 'must not be empty', raw);
  return text;
}

/**
 * One value of a fixed set, case-insensitive, with aliases the operator may type instead of the
 * API's own spelling. The error lists the values to type.
 */
function parseChoice<T extends string>(
  raw: string,
  source: Source,
  allowed: readonly T[],
  aliases: Readonly<Record<string, T>> = {},
  shown: readonly string[] = allowed,
): T {
  const text = raw.trim().toLowerCase();
  const value = aliases[text] ?? allowed.find((candidate) => candidate === text);
  if (value === undefined) fail(source, `must be one of ${shown.join(', ')}`, raw);
  return value;
}

const FREQUENCY_ALIASES: Record<string, Frequency> = {
  weekly: 'weekely',
  biweekly: 'bi-weekly',
  fortnightly: 'bi-weekly',
};

export function parseTenuredIn(raw: string, source: Source) {
  return parseChoice(raw, source, TENURED_IN, { month: 'months', day: 'days', week: 'weeks' });
}

export function parseRateType(raw: string, source: Source) {
  return parseChoice(raw, source, RATE_TYPES, {
    simple: 'simple-interest',
    compound: 'compound-interest',
    fixed: 'fixed-amount',
  });
}

export function parseFrequency(raw: string, source: Source): Frequency {
  return parseChoice(raw, source, FREQUENCIES, FREQUENCY_ALIASES, FREQUENCY_CHOICES_SHOWN);
}

export const DIRECTIONS = ['ASC', 'DESC'] as const;
export type Direction = (typeof DIRECTIONS)[number];

export function parseDirection(raw: string, source: Source): Direction {
  const text = raw.trim().toUpperCase();
  const found = DIRECTIONS.find((candidate) => candidate === text);
  if (found === undefined) fail(source, 'must be ASC or DESC', raw);
  return found;
}

/** `yes/no`, `true/false`, `1/0`, `y/n`: for booleans given as text (in `--data` or flags that take a value). */
export function parseBoolean(raw: string, source: Source): boolean {
  const text = raw.trim().toLowerCase();
  if (['yes', 'y', 'true', '1'].includes(text)) return true;
  if (['no', 'n', 'false', '0'].includes(text)) return false;
  return fail(source, 'must be yes or no', raw);
}

/** A user reference: an id, or an e-mail to resolve through the user list. */
export type UserRef = { kind: 'id'; id: number } | { kind: 'email'; email: string };

export function parseUserRef(raw: string, source: Source): UserRef {
  const text = raw.trim();
  if (/^\d+$/.test(text)) return { kind: 'id', id: parseId(text, source) };
  if (text.includes('@')) return { kind: 'email', email: parseEmail(text, source) };
  return fail(source, 'must be a user id or the e-mail of a user', raw, 'ada@example.com');
}

/** An http or https URL (a document's image): the sandbox, and any sane API, wants one. */
export function parseHttpUrl(raw: string, source: Source): string {
  const value = raw.trim();
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    fail(source, 'must be an http or https URL', raw, 'https://files.example.com/passport.jpg');
  }
  return value;
}

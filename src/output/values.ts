/**
 * How a value is shown to a person, once (docs/guide.md#output-formats): money with two decimals and
 * thousands separators, a rate with its unit, a timestamp with its zone (the zero timestamp as
 * `—`), a date, a yes/no, an age. CLI tables, `loan queue`, `loan approve`'s review, `loan
 * schedule` and every dashboard page call these; JSON, NDJSON and CSV carry values unchanged.
 *
 * Pure and light (no chalk, no zod): the sandbox's dashboard imports it too.
 */
import { isSetTimestamp, parseTimestamp } from '../contract/vocabulary.js';

const MONEY = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });

/** What an unset value (the zero timestamp, terms not yet given) shows as. */
const UNSET = '—';

/** `50000` → `50,000.00`. */
export function formatMoney(value: number): string {
  return MONEY.format(value);
}

/** `1234.5` → `1,234.5`; at most six decimals. */
export function formatNumber(value: number): string {
  return NUMBER.format(value);
}

/** `true` → `yes`. */
export function formatBool(value: boolean): string {
  return value ? 'yes' : 'no';
}

/** The singular of each tenure unit: the rate is a percentage per one of them. */
export const UNIT_SINGULAR = { months: 'month', weeks: 'week', days: 'day' } as const;

/** A rate as the API carries it: a number, the unit of the tenure it is per, how it is charged. */
export interface RateParts {
  rate: number;
  tenured_in?: string | undefined;
  rate_type?: string | undefined;
}

/**
 * `2 % per month`; for fixed-amount, the interest in currency: `5,000.00 fixed for the whole
 * loan`; `—` when no terms are set yet (no unit and no rate).
 */
export function formatRate({ rate, tenured_in, rate_type }: RateParts): string {
  if (rate_type === 'fixed-amount') return `${formatMoney(rate)} fixed for the whole loan`;
  const unit = UNIT_SINGULAR[tenured_in as keyof typeof UNIT_SINGULAR];
  if (unit === undefined) return rate === 0 ? UNSET : `${formatNumber(rate)} %`;
  return `${formatNumber(rate)} % per ${unit}`;
}

/**
 * `0001-01-01T00:00:00Z` (unset) → `—`; else `2026-11-22 05:27 +01:00` in the local time zone (TZ),
 * the way an operator reads a date, with its zone, written `UTC` when it is UTC. Text that is not
 * a timestamp is returned as it is (the caller escapes it).
 */
export function formatTimestamp(value: string): string {
  if (!isSetTimestamp(value)) return UNSET;
  const date = parseTimestamp(value);
  if (date === undefined) return value;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())} ${zoneOf(date)}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The local zone's offset at that date (daylight saving moves it): `UTC`, `+01:00`, `-05:30`. */
function zoneOf(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  if (minutes === 0) return 'UTC';
  const sign = minutes > 0 ? '+' : '-';
  return `${sign}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

/** `2026-03-01T…` → `2026-03-01`: a calendar date, as the API writes dates. */
export function formatDate(value: string): string {
  return isSetTimestamp(value) ? value.slice(0, 10) : UNSET;
}

/** `3 d 4 h`, `5 h 12 min`, `4 min`: how long something has waited, to the unit that matters. */
export function formatAge(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes % 60} min`;
  return `${minutes} min`;
}

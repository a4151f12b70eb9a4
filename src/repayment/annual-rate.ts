/**
 * Operators think in yearly rates; the API takes a rate per tenure unit (spec 4.19: `rate` with
 * `tenured_in`). The one rule between the two: the rate per unit is the yearly rate divided by
 * the units in a year — 12 months, 52 weeks, 365 days. Simple division, not compounding: it is
 * how a yearly rate is quoted per month. The rate per unit is sent whole, not rounded, so that it
 * comes back as the yearly rate the operator typed (30 % a year is 0.5769230769230769 % a week,
 * 30 % a year again; rounded to six decimals it came back as 29.999996); tables show at most six
 * decimals of it.
 */
import type { TenuredIn } from '../contract/vocabulary.js';

export const UNITS_PER_YEAR: Readonly<Record<TenuredIn, number>> = { months: 12, weeks: 52, days: 365 };

/** `24` % a year in `months` → `2` % a month; in `weeks` → `0.46153846153846156`. */
export function perUnitRate(annual: number, unit: TenuredIn): number {
  return annual / UNITS_PER_YEAR[unit];
}

/** The yearly rate a rate per unit comes to, to six decimals: `2` % a month → `24`. */
export function yearlyRate(perUnit: number, unit: TenuredIn): number {
  return Math.round(perUnit * UNITS_PER_YEAR[unit] * 1e6) / 1e6;
}

/** The rule, in words, for the review and the help. */
export const ANNUAL_RATE_RULE = 'the yearly rate ÷ 12 a month, ÷ 52 a week, ÷ 365 a day';

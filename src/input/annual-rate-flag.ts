/**
 * `--annual-rate` read into the `--rate` the API takes (`loan approve`, `loan schedule`). Apart
 * from ./flags.ts, which the command tree loads: this loads the value parsers.
 */
import { UsageError } from '../errors.js';
import { perUnitRate } from '../repayment/annual-rate.js';
import { parseNonNegativeNumber, parseRateType, parseTenuredIn } from './values.js';
/** The flags the rate is read from. */
export interface RateFlags {
  rate?: string | undefined;
  annualRate?: string | undefined;
  tenuredIn?: string | undefined;
  rateType?: string | undefined;
}

/**
 * `--rate` as the API takes it: given, or worked out from `--annual-rate` and the tenure unit
 * (`--tenured-in`, else `unitElsewhere`, e.g. from `--data`). Both flags, an annual rate without a
 * unit, or with a fixed-amount rate type (an amount, not a percentage) are usage errors (exit 2).
 */
export function rateFlag(flags: RateFlags, unitElsewhere?: unknown): string | undefined {
  if (flags.annualRate === undefined) return flags.rate;
  if (flags.rate !== undefined) {
    throw new UsageError(
      '--rate and --annual-rate cannot be used together.',
      '--rate is % per --tenured-in unit, --annual-rate % a year: give one of them.',
    );
  }
  const annual = parseNonNegativeNumber(flags.annualRate, '--annual-rate');
  if (flags.rateType !== undefined && parseRateType(flags.rateType, '--rate-type') === 'fixed-amount') {
    throw new UsageError(
      '--annual-rate is a percentage a year; a fixed-amount rate is the interest in currency.',
      'Give that amount with --rate.',
    );
  }
  const unitText = flags.tenuredIn ?? (typeof unitElsewhere === 'string' ? unitElsewhere : undefined);
  if (unitText === undefined) {
    throw new UsageError(
      '--annual-rate needs --tenured-in: the API takes the rate per tenure unit.',
      'Pass --tenured-in months, weeks or days.',
    );
  }
  return String(perUnitRate(annual, parseTenuredIn(unitText, '--tenured-in')));
}

/**
 * A yearly rate read into the rate per tenure unit the API takes: `--annual-rate` of `loan
 * approve` and `loan schedule`, and the "Or a yearly rate" field of the sandbox dashboard's
 * approval form, by one rule. Apart from the command's flags.ts, which the command tree loads:
 * this loads the value parsers.
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

/** What the operator calls each of the four values: flags on the command line, fields in the dashboard's form. */
export interface RateNames {
  rate: string;
  annualRate: string;
  tenuredIn: string;
  rateType: string;
}

const FLAG_NAMES: RateNames = {
  rate: '--rate',
  annualRate: '--annual-rate',
  tenuredIn: '--tenured-in',
  rateType: '--rate-type',
};

/**
 * `--rate` as the API takes it: given, or worked out from `--annual-rate` and the tenure unit
 * (`--tenured-in`, else `unitElsewhere`, e.g. from `--data`). Both flags, an annual rate without a
 * unit, or with a fixed-amount rate type (an amount, not a percentage) are usage errors (exit 2).
 * The one rule for every place a yearly rate is typed: the dashboard's approval form reads its
 * fields through this too, under their own `names`.
 */
export function rateFlag(flags: RateFlags, unitElsewhere?: unknown, names: RateNames = FLAG_NAMES): string | undefined {
  if (flags.annualRate === undefined) return flags.rate;
  if (flags.rate !== undefined) {
    throw new UsageError(
      `${names.rate} and ${names.annualRate} cannot be used together.`,
      `${names.rate} is % per ${names.tenuredIn} unit, ${names.annualRate} % a year: give one of them.`,
    );
  }
  const annual = parseNonNegativeNumber(flags.annualRate, names.annualRate);
  if (flags.rateType !== undefined && parseRateType(flags.rateType, names.rateType) === 'fixed-amount') {
    throw new UsageError(
      `${names.annualRate} is a percentage a year; a fixed-amount rate is the interest in currency.`,
      `Give that amount with ${names.rate}.`,
    );
  }
  const unitText = flags.tenuredIn ?? (typeof unitElsewhere === 'string' ? unitElsewhere : undefined);
  if (unitText === undefined) {
    throw new UsageError(
      `${names.annualRate} needs ${names.tenuredIn}: the API takes the rate per tenure unit.`,
      `Pass ${names.tenuredIn} months, weeks or days.`,
    );
  }
  return String(perUnitRate(annual, parseTenuredIn(unitText, names.tenuredIn)));
}

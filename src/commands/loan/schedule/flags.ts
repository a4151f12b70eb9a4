/**
 * The flags a schedule is computed from, written once: `--amount`, the approval terms' own flags
 * (src/contract/fields.ts, as `loan approve` takes them) and `--start`. `loan schedule` registers
 * the terms from this list, its messages name these flags, and `loan schedule ID` refuses them.
 */
import { BODY_FIELDS, type FieldDef, flagName } from '../../../contract/fields.js';
import { ANNUAL_RATE_RULE } from '../../../repayment/annual-rate.js';

/** The approval terms a schedule needs: all but the amount approved (`--amount` here) and the note. */
export const SCHEDULE_TERMS = [
  'rate',
  'tenure',
  'tenured_in',
  'rate_type',
  'frequency',
  'grace_period',
  'exclude_weekends',
] as const;

const approval: readonly FieldDef[] = BODY_FIELDS.approveLoanRequest;
const terms = SCHEDULE_TERMS.map((name) => approval.find((field) => field.name === name) as FieldDef);

/** Each field of the repayment terms and its flag, in the order of the command line. */
export const SCHEDULE_FLAGS: Readonly<Record<string, string>> = {
  principal: '--amount',
  ...Object.fromEntries(terms.map((field) => [field.name, `--${flagName(field)}`])),
  start: '--start',
};

/** `--annual-rate`: the yearly rate, for `loan approve` and `loan schedule` (instead of `--rate`). */
export const ANNUAL_RATE_HELP = `yearly interest in % instead of --rate: sent as the rate per --tenured-in unit (${ANNUAL_RATE_RULE})`;

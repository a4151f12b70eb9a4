/**
 * The flags a schedule is computed from, written once: `--amount`, the approval terms' own flags
 * (src/contract/fields.ts, as `loan approve` takes them) and `--start`. `loan schedule` registers
 * the terms from this list, its messages name these flags, and `loan schedule ID` refuses them.
 */
import { BODY_FIELDS, type FieldDef, flagName } from '../contract/fields.js';

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

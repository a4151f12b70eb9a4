/**
 * The terms a loan request was approved on (spec 2.4: `terms` of the loan request, or the
 * sandbox's row, same names) as repayment terms: the one place that mapping is written. `loan
 * schedule ID` and the dashboard's approval page read a stored loan through it.
 *
 * The API stores no repayment frequency. A schedule never contradicts the loan's own figures, so
 * the frequency is the one whose schedule gives the stored `estimated_repayment`, each one tried;
 * when none does, or more than one does (simple interest and fixed amounts repay the same whatever
 * the frequency), the caller must be told which.
 */
import { FREQUENCIES, type Frequency, isOneOf, RATE_TYPES, TENURED_IN } from '../contract/vocabulary.js';
import { buildSchedule } from './index.js';
import { type RepaymentTerms, RepaymentTermsError } from './terms.js';

/** The stored terms' fields (the API's `terms`, or the sandbox's columns of the same names). */
export interface StoredTerms {
  approved_amount: number;
  rate: number;
  tenure: number;
  tenured_in: string;
  rate_type: string;
  grace_period?: number | undefined;
  exclude_weekends?: boolean | number | undefined;
  estimated_repayment: number;
}

/**
 * The repayment terms of stored terms approved at `approvedAt`, with `frequency`; undefined when
 * the stored unit or rate type is not one loanctl schedules. The schedule starts on the day it
 * was approved: the sandbox computes estimated_repayment from that day too.
 */
export function storedRepaymentTerms(
  terms: StoredTerms,
  approvedAt: string,
  frequency: Frequency,
): RepaymentTerms | undefined {
  if (!isOneOf(terms.tenured_in, TENURED_IN) || !isOneOf(terms.rate_type, RATE_TYPES)) return undefined;
  return {
    principal: terms.approved_amount,
    rate: terms.rate,
    tenure: terms.tenure,
    tenured_in: terms.tenured_in,
    rate_type: terms.rate_type,
    frequency,
    grace_period: terms.grace_period ?? 0,
    exclude_weekends: terms.exclude_weekends === true || terms.exclude_weekends === 1,
    start: new Date(`${approvedAt.slice(0, 10)}T00:00:00Z`),
  };
}

/** The frequencies whose schedule repays exactly the stored `estimated_repayment` (to the kobo). */
export function frequenciesRepaying(terms: StoredTerms, approvedAt: string): Frequency[] {
  return FREQUENCIES.filter((frequency) => {
    const candidate = storedRepaymentTerms(terms, approvedAt, frequency);
    if (candidate === undefined) return false;
    try {
      return kobo(buildSchedule(candidate).total_repayment) === kobo(terms.estimated_repayment);
    } catch (error) {
      if (error instanceof RepaymentTermsError) return false;
      throw error;
    }
  });
}

const kobo = (amount: number) => Math.round(amount * 100);

/** The one frequency that agrees with the stored figures, or the list of those that do (none, or several). */
export function storedFrequency(terms: StoredTerms, approvedAt: string): Frequency | Frequency[] {
  const found = frequenciesRepaying(terms, approvedAt);
  return found.length === 1 ? (found[0] as Frequency) : found;
}

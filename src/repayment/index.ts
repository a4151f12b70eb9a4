/**
 * The repayment module: a loan's repayment schedule and its estimated repayment.
 *
 * One module, used by the sandbox to fill `terms.estimated_repayment` on approval and by the CLI
 * for `loan schedule` and `loan approve --preview`, so both always agree. The spec gives the
 * fields (2.4, 4.19) but not the arithmetic; the rules below are ours, and
 * docs/guide.md#repayment-schedules states them for operators.
 *
 * Rate, per rate type (`rate` is a percentage per `tenured_in` unit, except for fixed-amount):
 * - simple-interest: flat interest on the whole principal for the whole tenure,
 *   principal × rate% × tenure, spread evenly over the instalments with the principal.
 * - compound-interest: reducing balance, amortised. Each instalment is the same total; interest is
 *   charged each period on the principal still outstanding, at the periodic rate
 *   i = (1 + rate%)^(tenure / n) − 1 for n instalments: the rate compounded over the tenure, shared
 *   equally by the n instalment periods. When the instalment period is a whole number of tenure
 *   units this is the usual conversion by compounding (5% a week → 1.05² − 1 a fortnight); when it
 *   is not (weeks inside months) no day-count convention is needed, and the remainder of a tenure
 *   that is not a whole number of periods is still priced. Instalment = P·i / (1 − (1 + i)^−n).
 * - fixed-amount: `rate` is the interest in currency for the whole loan, spread evenly.
 * A zero rate means no interest, whatever the type.
 *
 * Dates (all UTC, whole days):
 * - The schedule starts `grace_period` days after `start`; no instalment falls due before then and
 *   the grace period adds no interest (interest is priced on the tenure only).
 * - Maturity = schedule start + tenure (calendar months for `months`, 7 days a week).
 * - Instalment period: daily 1 day, weekely 7, bi-weekly 14, monthly 1 calendar month (clamped to
 *   the end of a shorter month). n = the number of whole periods that fit between schedule start
 *   and maturity, at least 1. Instalments 1 … n−1 fall one, two, … periods after the schedule
 *   start; instalment n falls on maturity, so a remainder lengthens the last period.
 * - exclude_weekends: a due date on Saturday or Sunday moves to the next Monday. Due dates that
 *   then coincide (only daily instalments can) are one instalment, so daily instalments fall on
 *   weekdays only and n shrinks. Moving a date never changes the interest of simple-interest or
 *   fixed-amount; compound-interest depends only on n.
 * - maturity_date in the result is the last instalment's due date (after any weekend move).
 *
 * Money: amounts are computed in whole kobo (integers) and returned with 2 decimals. The principal
 * and a fixed interest amount are first rounded to the kobo. An even share is rounded down to the
 * kobo and the last instalment takes the remainder, so the principal column sums exactly to the
 * principal and no amount is ever negative; compound-interest rounds the instalment and each
 * period's interest half up, and the last instalment clears the balance. Every total is the sum of
 * its column; `balance` is the principal still outstanding after the instalment, ending at 0.
 */
import type { BodyOf } from '../contract/fields.js';
import { inputProblems } from './check-terms.js';
import { compute } from './compute.js';
import { type RepaymentTerms, RepaymentTermsError, type Schedule } from './terms.js';

export {
  type Instalment,
  MAX_GRACE_PERIOD_DAYS,
  MAX_TENURE,
  type RepaymentTerms,
  RepaymentTermsError,
  type Schedule,
} from './terms.js';

/**
 * Every problem with `terms`, each as `field: what is wrong`; empty when buildSchedule will
 * succeed. Accepts anything, so a caller can check raw input and show all problems at once.
 */
export function validateRepaymentTerms(terms: unknown): string[] {
  if (!isRepaymentTerms(terms)) return inputProblems(terms);
  const result = compute(terms);
  return Array.isArray(result) ? result : [];
}

/** Whether every field of `terms` is what RepaymentTerms says (the amounts may still not schedule). */
export function isRepaymentTerms(terms: unknown): terms is RepaymentTerms {
  return inputProblems(terms).length === 0;
}

/** The loan's repayment schedule. Throws RepaymentTermsError when the terms are invalid. */
export function buildSchedule(terms: RepaymentTerms): Schedule {
  const problems = inputProblems(terms);
  if (problems.length > 0) throw new RepaymentTermsError(problems);
  const result = compute(terms);
  if (Array.isArray(result)) throw new RepaymentTermsError(result);
  return result;
}

/** What the borrower repays in all: `buildSchedule(terms).total_repayment`. */
export function estimatedRepayment(terms: RepaymentTerms): number {
  return buildSchedule(terms).total_repayment;
}

/** The approval body of spec 4.19 as repayment terms; `approved_amount` is the principal. */
export function repaymentTermsFromApproval(approval: BodyOf<'approveLoanRequest'>, start?: Date): RepaymentTerms {
  return {
    principal: approval.approved_amount,
    rate: approval.rate,
    tenure: approval.tenure,
    tenured_in: approval.tenured_in,
    rate_type: approval.rate_type,
    frequency: approval.frequency,
    grace_period: approval.grace_period ?? 0,
    exclude_weekends: approval.exclude_weekends ?? false,
    ...(start ? { start } : {}),
  };
}

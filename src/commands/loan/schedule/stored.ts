/**
 * `loanctl loan schedule ID`: the schedule of an approved loan request from the terms the API
 * stored with it (spec 2.4), starting on the day it was approved. The API stores no frequency, so
 * it comes from `--frequency` (default monthly, said on stderr when assumed). The other term flags
 * do not mix with an ID: the stored terms are the point.
 */

import { optionKeyOf } from '../../../contract/fields.js';
import { type Frequency, isOneOf, isSetTimestamp, RATE_TYPES, TENURED_IN } from '../../../contract/vocabulary.js';
import type { Deps } from '../../../deps.js';
import { findLoanRequest } from '../../../domain/loan-requests.js';
import { UsageError } from '../../../errors.js';
import { parseFrequency } from '../../../input/values.js';
import { notice } from '../../../output/notice.js';
import { renderSchedule } from '../../../output/schedule.js';
import { buildSchedule, type RepaymentTerms } from '../../../repayment/index.js';
import { SCHEDULE_FLAGS } from './flags.js';
import type { LoanScheduleOptions } from './run.js';

const DEFAULT_STORED_FREQUENCY = 'monthly';

/** Flags that set terms by hand, refused next to an ID: every schedule flag but --frequency. */
const HAND_TERMS = Object.values(SCHEDULE_FLAGS).filter((flag) => flag !== '--frequency');

/** Checks the flags that go with an ID (exit 2 before anything is read). Returns the frequency to use. */
export function storedScheduleFrequency(id: number, options: LoanScheduleOptions): Frequency {
  const given = new Set(Object.entries(options).flatMap(([key, value]) => (value === undefined ? [] : [key])));
  const handTerms = HAND_TERMS.filter((flag) => given.has(optionKeyOf(flag)));
  if (handTerms.length > 0) {
    throw new UsageError(
      `loan schedule ${id} uses the terms stored with the loan request; leave out ${handTerms.join(', ')}.`,
      'Only --frequency goes with an ID (the API stores none). To try other terms, leave out the ID.',
    );
  }
  return parseFrequency(options.frequency ?? DEFAULT_STORED_FREQUENCY, '--frequency');
}

/** Prints the schedule of approved loan request `id` of the product (exit 2 when it is not approved). */
export async function runStoredSchedule(
  id: number,
  productId: number,
  options: LoanScheduleOptions,
  deps: Deps,
): Promise<void> {
  const frequency = storedScheduleFrequency(id, options);
  const loan = await findLoanRequest(await deps.api(), productId, id);
  const { terms } = loan;
  if (!isSetTimestamp(loan.approved_at) || !terms || !(terms.approved_amount > 0)) {
    throw new UsageError(
      `Loan request ${id} is not approved, so it has no terms to schedule.`,
      'Approve it first (loanctl loan approve), or try terms by hand: loanctl loan schedule --amount … (see --help).',
    );
  }
  if (!isOneOf(terms.tenured_in, TENURED_IN) || !isOneOf(terms.rate_type, RATE_TYPES)) {
    throw new UsageError(
      `Loan request ${id} has terms loanctl cannot schedule (tenured_in "${terms.tenured_in}", rate_type "${terms.rate_type}").`,
    );
  }
  if (options.frequency === undefined) {
    notice(
      deps,
      `The API stores no repayment frequency: assuming ${DEFAULT_STORED_FREQUENCY}. Pass --frequency if it was approved otherwise.`,
    );
  }
  const stored: RepaymentTerms = {
    principal: terms.approved_amount,
    rate: terms.rate,
    tenure: terms.tenure,
    tenured_in: terms.tenured_in,
    rate_type: terms.rate_type,
    frequency,
    grace_period: terms.grace_period,
    exclude_weekends: terms.exclude_weekends,
    // The day it was approved: the sandbox computes estimated_repayment from that day too.
    start: new Date(`${loan.approved_at.slice(0, 10)}T00:00:00Z`),
  };
  await renderSchedule(buildSchedule(stored), stored, deps);
}

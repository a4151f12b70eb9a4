/**
 * `loanctl loan schedule ID`: the schedule of an approved loan request from the terms the API
 * stored with it (spec 2.4), starting on the day it was approved (src/repayment/stored.ts maps
 * them). The API stores no frequency: without `--frequency`, it is the one whose schedule repays
 * the loan's own estimated repayment; when none or several do, the command refuses (exit 2) and
 * says to pass `--frequency`. A schedule never contradicts the loan's figures. The other term
 * flags do not mix with an ID: the stored terms are the point.
 */

import { optionKeyOf } from '../../../contract/fields.js';
import { isApproved } from '../../../contract/states.js';
import {
  FREQUENCY_CHOICES_SHOWN,
  type Frequency,
  frequencyWord,
  isSetTimestamp,
} from '../../../contract/vocabulary.js';
import type { Deps } from '../../../deps.js';
import { findLoanRequest } from '../../../domain/loan-requests.js';
import { UsageError } from '../../../errors.js';
import { parseFrequency } from '../../../input/values.js';
import { notice } from '../../../output/notice.js';
import { renderSchedule } from '../../../output/schedule.js';
import { formatMoney } from '../../../output/values.js';
import { buildSchedule } from '../../../repayment/index.js';
import { type StoredTerms, storedFrequency, storedRepaymentTerms } from '../../../repayment/stored.js';
import { SCHEDULE_FLAGS } from './flags.js';
import type { LoanScheduleOptions } from './run.js';

/** Flags that set terms by hand, refused next to an ID: every schedule flag but --frequency. */
const HAND_TERMS = Object.values(SCHEDULE_FLAGS).filter((flag) => flag !== '--frequency');

/** Checks the flags that go with an ID (exit 2 before anything is read). Returns the frequency given, if any. */
export function storedScheduleFrequency(id: number, options: LoanScheduleOptions): Frequency | undefined {
  const given = new Set(Object.entries(options).flatMap(([key, value]) => (value === undefined ? [] : [key])));
  const handTerms = HAND_TERMS.filter((flag) => given.has(optionKeyOf(flag)));
  if (handTerms.length > 0) {
    throw new UsageError(
      `loan schedule ${id} uses the terms stored with the loan request; leave out ${handTerms.join(', ')}.`,
      'Only --frequency goes with an ID (the API stores none). To try other terms, leave out the ID.',
    );
  }
  return options.frequency === undefined ? undefined : parseFrequency(options.frequency, '--frequency');
}

/**
 * The frequency of a stored loan: the one given, else the one whose schedule repays its estimated
 * repayment; a UsageError naming --frequency when none or several do.
 */
export function frequencyOfStored(id: number, terms: StoredTerms, approvedAt: string): Frequency {
  const found = storedFrequency(terms, approvedAt);
  if (!Array.isArray(found)) return found;
  const repayment = formatMoney(terms.estimated_repayment);
  const choices = `--frequency ${FREQUENCY_CHOICES_SHOWN.join('|')}`;
  if (found.length === 0) {
    throw new UsageError(
      `Loan request ${id}: no repayment frequency gives its estimated repayment of ${repayment}, and the API stores none: its schedule cannot be told from its figures.`,
      `Pass the frequency it was approved with: ${choices}.`,
    );
  }
  throw new UsageError(
    `Loan request ${id} repays ${repayment} whether it is repaid ${found.map(frequencyWord).join(', ')}, and the API stores no frequency: its schedule cannot be told from its figures.`,
    `Pass the frequency it was approved with: ${choices}.`,
  );
}

/** Prints the schedule of approved loan request `id` of the product (exit 2 when it is not approved). */
export async function runStoredSchedule(
  id: number,
  productId: number,
  options: LoanScheduleOptions,
  deps: Deps,
): Promise<void> {
  const given = storedScheduleFrequency(id, options);
  const loan = await findLoanRequest(await deps.api(), productId, id);
  const { terms } = loan;
  if (!isApproved(loan) || !isSetTimestamp(loan.approved_at) || !terms || !(terms.approved_amount > 0)) {
    throw new UsageError(
      `Loan request ${id} is not approved, so it has no terms to schedule.`,
      'Approve it first (loanctl loan approve), or try terms by hand: loanctl loan schedule --amount … (see --help).',
    );
  }
  const frequency = given ?? frequencyOfStored(id, terms, loan.approved_at);
  const stored = storedRepaymentTerms(terms, loan.approved_at, frequency);
  if (stored === undefined) {
    throw new UsageError(
      `Loan request ${id} has terms loanctl cannot schedule (tenured_in "${terms.tenured_in}", rate_type "${terms.rate_type}").`,
    );
  }
  if (given === undefined) {
    notice(
      deps,
      `Repaid ${frequencyWord(frequency)}: the one frequency whose schedule repays its estimated repayment.`,
    );
  }
  await renderSchedule(buildSchedule(stored), stored, deps);
}

/**
 * What `loan approve` shows before it sends: the borrower, the amount requested and approved, the
 * rate with its unit, the interest and repayment in total, the instalments and their first and
 * last due dates — all computed by the repayment module the sandbox uses for
 * `estimated_repayment`, as if approved today — and the warnings that make an approval worth a
 * second look (already approved, never submitted, more interest than principal).
 */
import type { BodyOf } from '../../contract/fields.js';
import type { LoanRequest } from '../../contract/schemas.js';

type ApprovalTerms = BodyOf<'approveLoanRequest'>;

import { isSetTimestamp } from '../../contract/vocabulary.js';
import { formatMoney } from '../../output/format.js';
import {
  buildSchedule,
  RepaymentTermsError,
  repaymentTermsFromApproval,
  type Schedule,
} from '../../repayment/index.js';

const UNIT = { months: 'month', weeks: 'week', days: 'day' } as const;

export interface ApprovalReview {
  /** The lines to show, warnings last (each `warning: …`). */
  lines: string[];
  warnings: string[];
  alreadyApproved: boolean;
}

/** The review of approving `loan` on `terms` at `now`. */
export function reviewApproval(loan: LoanRequest, terms: ApprovalTerms, now: Date): ApprovalReview {
  const schedule = scheduleOrProblem(terms, now);
  const lines = [
    `Approve loan request ${loan.id} of ${loan.fullname || 'an unnamed borrower'} (user ${loan.user_id}):`,
    `  amount       requested ${formatMoney(loan.amount)}, approved ${formatMoney(terms.approved_amount)}`,
    `  rate         ${rateWithUnit(terms)}`,
  ];
  if (typeof schedule === 'string') {
    lines.push(`  schedule     cannot be computed here: ${schedule}`);
  } else {
    const count = schedule.instalments.length;
    const frequency = terms.frequency === 'weekely' ? 'weekly' : terms.frequency;
    lines.push(
      `  interest     ${formatMoney(schedule.total_interest)} in total`,
      `  repayment    ${formatMoney(schedule.total_repayment)} in total`,
      `  instalments  ${count} (${frequency}), first due ${schedule.instalments[0]?.due_date}, last due ${schedule.maturity_date} (if approved today)`,
    );
  }

  const alreadyApproved = loan.lender_status === 'approved' || isSetTimestamp(loan.approved_at);
  const warnings: string[] = [];
  if (alreadyApproved) {
    const was = loan.terms?.approved_amount ? ` for ${formatMoney(loan.terms.approved_amount)}` : '';
    warnings.push(`loan request ${loan.id} is already approved${was}: these terms replace the old ones.`);
  }
  if (loan.user_status !== 'submitted' && !isSetTimestamp(loan.submitted_at)) {
    warnings.push(`loan request ${loan.id} was never submitted by the borrower.`);
  }
  if (typeof schedule !== 'string' && schedule.total_interest > schedule.total_principal) {
    warnings.push(
      `the interest (${formatMoney(schedule.total_interest)}) is more than the principal (${formatMoney(schedule.total_principal)}).`,
    );
  }
  return { lines: [...lines, ...warnings.map((warning) => `warning: ${warning}`)], warnings, alreadyApproved };
}

/**
 * The rate as the repayment module reads it: `5 % per month (simple interest)` — a percentage per
 * `tenured_in` unit — or, for fixed-amount, the interest in currency for the whole loan.
 */
export function rateWithUnit(terms: ApprovalTerms): string {
  if (terms.rate === 0) return '0 % (no interest)';
  if (terms.rate_type === 'fixed-amount') return `${formatMoney(terms.rate)} fixed interest for the whole loan`;
  const kind = terms.rate_type === 'compound-interest' ? 'compound interest' : 'simple interest';
  return `${terms.rate} % per ${UNIT[terms.tenured_in]} (${kind})`;
}

function scheduleOrProblem(terms: ApprovalTerms, now: Date): Schedule | string {
  try {
    return buildSchedule(repaymentTermsFromApproval(terms, now));
  } catch (error) {
    if (!(error instanceof RepaymentTermsError)) throw error;
    return error.problems.join('; ');
  }
}

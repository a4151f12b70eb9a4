/**
 * What `loan approve` shows before it sends: the borrower, the amount requested and approved, the
 * rate with its unit and as a yearly rate, the interest and repayment in total, the instalments
 * and their first and last due dates — all computed by the repayment module the sandbox uses for
 * `estimated_repayment`, as if approved today (by the server's clock) — then what the API would
 * refuse (nothing is asked then), and the warnings that make an approval worth a second look, each
 * with the flag that accepts it under `--yes` (docs/guide.md#approving-safely: `--yes` answers the question, not
 * the warnings).
 */
import type { BodyOf } from '../contract/fields.js';
import type { LoanRequest } from '../contract/schemas.js';
import { isApproved, wasSubmitted } from '../contract/states.js';
import { ANNUAL_RATE_RULE, yearlyRate } from '../repayment/annual-rate.js';
import { buildSchedule, RepaymentTermsError, repaymentTermsFromApproval, type Schedule } from '../repayment/index.js';
import { formatMoney, formatNumber, formatRate } from './values.js';

type ApprovalTerms = BodyOf<'approveLoanRequest'>;

/** A warning, and the flag that accepts it under `--yes`. */
interface ApprovalWarning {
  text: string;
  flag: '--reapprove' | '--allow-unsubmitted' | '--allow-high-interest';
}

/** The option each warning's flag sets (the flags of `loan approve`, one file or one loan). */
export const ACCEPTED_BY = {
  '--reapprove': 'reapprove',
  '--allow-unsubmitted': 'allowUnsubmitted',
  '--allow-high-interest': 'allowHighInterest',
} as const;

/** The warnings no flag of `accepted` accepts. */
export function unacceptedWarnings(
  review: ApprovalReview,
  accepted: Partial<Record<(typeof ACCEPTED_BY)[ApprovalWarning['flag']], boolean | undefined>>,
): ApprovalWarning[] {
  return review.warnings.filter((warning) => !accepted[ACCEPTED_BY[warning.flag]]);
}

export interface ApprovalReview {
  /** The lines to show, refusals and warnings last (`refused: …`, `warning: …`). */
  lines: string[];
  /** What the API refuses (the approval is not asked for then). */
  refusals: string[];
  warnings: ApprovalWarning[];
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
  const refusals = refusalsOf(loan, terms);
  const warnings = warningsOf(loan, schedule);
  return {
    lines: [
      ...lines,
      ...refusals.map((refusal) => `refused: ${refusal}`),
      ...warnings.map((warning) => `warning: ${warning.text}`),
    ],
    refusals,
    warnings,
  };
}

/** What the API refuses, read from the loan request already in hand (the sandbox refuses the same). */
function refusalsOf(loan: LoanRequest, terms: ApprovalTerms): string[] {
  if (terms.approved_amount <= loan.amount) return [];
  return [
    `the approved amount (${formatMoney(terms.approved_amount)}) is more than the ${formatMoney(loan.amount)} requested: the API refuses it.`,
  ];
}

function warningsOf(loan: LoanRequest, schedule: Schedule | string): ApprovalWarning[] {
  const warnings: ApprovalWarning[] = [];
  if (isApproved(loan)) {
    const was = loan.terms?.approved_amount ? ` for ${formatMoney(loan.terms.approved_amount)}` : '';
    warnings.push({
      text: `loan request ${loan.id} is already approved${was}: these terms replace the old ones.`,
      flag: '--reapprove',
    });
  } else if (!wasSubmitted(loan)) {
    warnings.push({
      text: `loan request ${loan.id} was never submitted by the borrower.`,
      flag: '--allow-unsubmitted',
    });
  }
  if (typeof schedule !== 'string' && schedule.total_interest > schedule.total_principal) {
    warnings.push({
      text: `the interest (${formatMoney(schedule.total_interest)}) is more than the principal (${formatMoney(schedule.total_principal)}).`,
      flag: '--allow-high-interest',
    });
  }
  return warnings;
}

const RATE_TYPE_WORDS = { 'simple-interest': 'simple interest', 'compound-interest': 'compound interest' } as const;

/**
 * The rate as the API takes it and as a yearly rate: `2 % per month (simple interest), 24 % a
 * year (the yearly rate ÷ 12 a month, …)`; for fixed-amount, the interest in currency.
 */
function rateWithUnit(terms: ApprovalTerms): string {
  if (terms.rate === 0) return '0 % (no interest)';
  if (terms.rate_type === 'fixed-amount') return formatRate(terms);
  const yearly = formatNumber(yearlyRate(terms.rate, terms.tenured_in));
  return `${formatRate(terms)} (${RATE_TYPE_WORDS[terms.rate_type]}), ${yearly} % a year (${ANNUAL_RATE_RULE})`;
}

function scheduleOrProblem(terms: ApprovalTerms, now: Date): Schedule | string {
  try {
    return buildSchedule(repaymentTermsFromApproval(terms, now));
  } catch (error) {
    if (!(error instanceof RepaymentTermsError)) throw error;
    return error.problems.join('; ');
  }
}

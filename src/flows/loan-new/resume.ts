/**
 * `loan new --resume ID`: reads the loan request and what is attached to it (the helpers of
 * src/domain/loan-requests.ts) and decides from those records what it has and what remains.
 *
 * What was attached comes from the records themselves; submitted and approved from the loan
 * request's statuses and timestamps. The progress string is only shown: the spec never defines
 * its values, so the real service's markers are unknown.
 */
import type { LoanRequest } from '../../contract/schemas.js';
import { isSetTimestamp } from '../../contract/vocabulary.js';
import { findLoanRequest, readAttachments } from '../../domain/loan-requests.js';
import type { ApiClient } from '../../http/api-client.js';
import { formatMoney } from '../../output/format.js';
import type { LoanSession } from './session.js';
import { describeExisting, type StepId } from './steps.js';

/** Where a loan request stands, as its records say. */
interface ResumePoint {
  loan: LoanRequest;
  /** The progress string as replied (shown, never interpreted). */
  progress: unknown;
  /** One line per record found, per step the API shows back. */
  found: Partial<Record<StepId, string[]>>;
  submitted: boolean;
  approved: boolean;
}

/** Loan request `id` of the product and its records (exit 4 when it is not there). */
async function readResumePoint(api: ApiClient, productId: number, id: number): Promise<ResumePoint> {
  const loan = await findLoanRequest(api, productId, id);
  const { progress, bankDetails, guarantors, employment } = await readAttachments(api, productId, id);
  return {
    loan,
    progress: progress.data,
    found: {
      bank: (bankDetails.data ?? []).map(describeExisting.bank),
      guarantor: (guarantors.data ?? []).map(describeExisting.guarantor),
      employment: employment.data ? [describeExisting.employment(employment.data)] : [],
    },
    submitted: loan.user_status === 'submitted' || isSetTimestamp(loan.submitted_at),
    approved: loan.lender_status === 'approved' || isSetTimestamp(loan.approved_at),
  };
}

/** Picks up loan request `id` in the session, and shows what it has and what remains. */
export async function resume(session: LoanSession, id: number): Promise<void> {
  const point = await session.reading(readResumePoint(session.api, session.productId, id));
  const { loan } = point;
  session.loan = loan;
  session.borrower = { id: loan.user_id, email: undefined, name: loan.fullname };
  for (const [step, lines] of Object.entries(point.found) as Array<[StepId, string[]]>) {
    session.lines(step).push(...lines);
  }
  session.resumed = true;
  session.submitted = point.submitted;
  session.approved = point.approved;

  session.say(
    `Loan request ${loan.id} (${loan.reference}) for ${loan.fullname}: ${formatMoney(loan.amount)}, ${loan.purpose}.`,
  );
  const state = `status ${loan.status}, lender status ${loan.lender_status}.`;
  const shown = point.progress ?? loan.progress;
  session.say(typeof shown === 'string' && shown !== '' ? `Progress: ${shown}; ${state}` : `Loan request ${state}`);
  session.showParts();
  if (!session.submitted) {
    const remaining = session.remainingSteps().map((step) => step.title.toLowerCase());
    session.say(`Still to add, if you want: ${remaining.join(', ')}.\n`);
  }
}

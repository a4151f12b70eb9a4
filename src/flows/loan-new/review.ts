/**
 * The end of the guided flow: the review screen and submit, then approval — the terms asked, the
 * repayment schedule shown, and only then the question that approves.
 */
import type { LoanRequest } from '../../contract/schemas.js';
import { ApiError, formatError } from '../../errors.js';
import { formatMoney } from '../../output/format.js';
import type { LoanSession } from './session.js';
import { askTerms, describeApproval } from './terms.js';

/** The review screen; true once submitted, false to go back to the steps. */
export async function review(session: LoanSession): Promise<boolean> {
  const loan = session.loanRequest;
  session.say(`\nReview: loan request ${loan.id} (${loan.reference})`);
  const who = session.borrower;
  if (who) session.row('Borrower', `${who.name}${who.email ? ` <${who.email}>` : ''} (user ${who.id})`);
  session.row('Amount', formatMoney(loan.amount));
  session.row('Purpose', loan.purpose);
  session.showParts();
  session.say('');
  if (!(await session.prompter.confirm(`Submit loan request ${loan.id} now?`, { default: true }))) return false;
  try {
    const result = await session.send('submitLoanRequest', { params: { id: loan.id } });
    // The API answers a submit with the loan request in data1 (the client types data only).
    session.loan = (result.data1 as LoanRequest | null) ?? loan;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    session.say(`loanctl: ${formatError(error)}\n`);
    return false;
  }
  session.submitted = true;
  session.created.push(`submitted loan request ${loan.id}`);
  session.say(`Submitted loan request ${loan.id}.\n`);
  return true;
}

/** Offers approval of the submitted loan request: the terms, the schedule, then the question. */
export async function approveIfWanted(session: LoanSession): Promise<void> {
  const id = session.loanId;
  if (!(await session.prompter.confirm(`Approve loan request ${id} now?`, { default: false }))) {
    session.say(`Not approved. When ready: loanctl loan approve ${id} --preview …  (or ${session.resumeCommand()})`);
    return;
  }
  const terms = await askTerms(session.prompter, session.loanRequest);
  const { previewApproval } = await import('../../output/schedule-preview.js');
  session.say('');
  await previewApproval(terms, session.deps);
  const summary = describeApproval(terms);
  if (!(await session.prompter.confirm(`Approve loan request ${id}: ${summary}?`, { default: false }))) {
    session.say(
      `Not approved. Approve later with: loanctl loan approve ${id} --preview …  (or ${session.resumeCommand()})`,
    );
    return;
  }
  const result = await session.send('approveLoanRequest', {
    params: { id },
    query: { action: 'approve' },
    body: terms,
  });
  // A reply without the loan request keeps the one we have (data may be null, or data1 carry it).
  session.loan = (result.payload as LoanRequest | null) ?? session.loan;
  session.approved = true;
  session.created.push(`approved loan request ${id}`);
  session.say(`Approved loan request ${id}: ${summary}.\n`);
}

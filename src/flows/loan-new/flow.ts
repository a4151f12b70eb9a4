/**
 * The guided loan creation, in order: the borrower (found by e-mail, or created), the loan
 * request, the menu of optional steps (each sent as soon as it is answered), the review screen,
 * submit, and approval with the repayment schedule shown first. Or, with --resume, the loan
 * request as its records stand (./resume.ts) and the steps that remain.
 *
 * The questions are ./prompts.ts and ./terms.ts; what was sent, Ctrl-C and the summary, ./session.ts.
 */

import type { Deps } from '../../deps.js';
import { userLookup } from '../../domain/user-lookup.js';
import { findUserByEmail } from '../../domain/users.js';
import { ApiError, formatError, NoAccessError, UsageError } from '../../errors.js';
import { formatMoney } from '../../output/format.js';
import { notice } from '../../output/notice.js';
import { type Output, openOutput } from '../../output/output.js';
import { CtrlC, type Signals } from './interrupt.js';
import { askBorrowerEmail, askLoanRequest, askNewBorrower, askStep, chooseNext } from './prompts.js';
import { resume } from './resume.js';
import { approveIfWanted, review } from './review.js';
import { LoanSession } from './session.js';
import { STEPS, type StepDef } from './steps.js';

export interface LoanNewFlow {
  productId: number;
  /** `--product` as typed, repeated in the commands the flow suggests. */
  productFlag: string | undefined;
  /** `--resume ID`: pick up this loan request instead of creating one. */
  resumeId: number | undefined;
  /** Where SIGINT comes from (the process; tests pass an EventEmitter). */
  signals: Signals;
}

export async function runLoanNewFlow(deps: Deps, flow: LoanNewFlow): Promise<void> {
  const ctrlC = new CtrlC(flow.signals);
  ctrlC.listen();
  let session: LoanSession | undefined;
  try {
    // Opened first: a wrong --fields is exit 2 before any question or request.
    const output = await openOutput(deps, 'createLoanRequest');
    session = new LoanSession(deps, await deps.api(), flow.productId, flow.productFlag, ctrlC);
    await guide(session, flow.resumeId);
    await finish(session, output);
  } catch (error) {
    throw session ? session.stopped(error) : error;
  } finally {
    ctrlC.stopListening();
  }
}

async function guide(session: LoanSession, resumeId: number | undefined): Promise<void> {
  if (resumeId === undefined) {
    session.say('A new loan request, step by step. Ctrl-C stops at any point; what was sent stays.\n');
    await findOrCreateBorrower(session);
    await createLoanRequest(session);
  } else {
    await resume(session, resumeId);
  }
  if (session.approved) {
    session.say(`Loan request ${session.loanId} is already approved; there is nothing left to add here.`);
    return;
  }
  if (!session.submitted && (await menu(session)) === 'later') {
    session.say(`\nLoan request ${session.loanId} is saved. Continue with: ${session.resumeCommand()}`);
    return;
  }
  await approveIfWanted(session);
}

async function findOrCreateBorrower(session: LoanSession): Promise<void> {
  for (;;) {
    const email = await askBorrowerEmail(session.prompter);
    const found = await lookUp(session, email);
    if (found) {
      session.borrower = { id: found.id, email: found.email, name: `${found.firstname} ${found.lastname}` };
      session.say(`Found ${session.borrower.name} (user ${found.id}, ${found.phone}).`);
      return;
    }
    if (await session.prompter.confirm(`No borrower with e-mail ${email} yet. Create one?`, { default: true })) {
      await createBorrower(session, email);
      return;
    }
  }
}

async function lookUp(session: LoanSession, email: string) {
  const lookup = await userLookup(session.deps);
  return session.reading(findUserByEmail(session.api, email, lookup)).catch((error: unknown) => {
    if (error instanceof NoAccessError) return undefined;
    throw error;
  });
}

async function createBorrower(session: LoanSession, email: string): Promise<void> {
  const body = await askNewBorrower(session.prompter, email);
  const result = await session.send('createUser', { body });
  if (result.status === 'exists') session.say(`A borrower with e-mail ${email} already exists; using it.`);
  const user = await session.reading(findUserByEmail(session.api, email, await userLookup(session.deps)));
  session.borrower = { id: user.id, email: user.email, name: `${user.firstname} ${user.lastname}` };
  if (result.status !== 'exists') session.created.push(`user ${user.id} (${user.email})`);
  session.say(`Created borrower ${session.borrower.name} (user ${user.id}).`);
}

async function createLoanRequest(session: LoanSession): Promise<void> {
  const borrower = session.borrower;
  if (!borrower) throw new Error('the borrower comes before the loan request');
  const body = await askLoanRequest(session.prompter);
  const result = await session.send('createLoanRequest', { params: { user_id: borrower.id }, body });
  const loan = result.data;
  session.loan = loan;
  session.created.push(`loan request ${loan.id} (${formatMoney(body.amount)}, ${body.purpose})`);
  session.say(`Created loan request ${loan.id} (${loan.reference}) for ${borrower.name}.\n`);
}

/** The optional steps until the operator submits ('submitted') or stops here ('later'). */
async function menu(session: LoanSession): Promise<'submitted' | 'later'> {
  for (;;) {
    const next = await chooseNext(session.prompter, session.remainingSteps(), (id) => session.lines(id).length);
    if (next === 'later') return 'later';
    if (next === 'review') {
      if (await review(session)) return 'submitted';
      continue;
    }
    const step = STEPS.find((candidate) => candidate.id === next);
    if (step) await runStep(session, step);
  }
}

/** One step, asked and sent; again while the operator adds more of a step that repeats. */
async function runStep(session: LoanSession, step: StepDef): Promise<void> {
  for (;;) {
    session.say(`${step.title} for loan request ${session.loanId}:`);
    const context = { borrowerName: session.borrower?.name ?? '', orgId: session.loanRequest.org_id };
    const body = await askStep(session.prompter, step, context);
    try {
      const result = await session.sendStep(step, body);
      const line = step.describe(body);
      session.lines(step.id).push(line);
      const id = step.createdId?.(result.data);
      session.created.push(`${step.what.replace(/^an? /, '')}${id === undefined ? '' : ` ${id}`}: ${line}`);
      session.say(`Added ${step.what} to loan request ${session.loanId}.\n`);
    } catch (error) {
      // The API refused this step (e.g. employment added twice): say why, keep the flow going.
      if (!(error instanceof ApiError || error instanceof UsageError)) throw error;
      session.say(`loanctl: ${formatError(error)}`);
      session.say(`Nothing was added. Pick the step again to retry, or choose another.\n`);
      return;
    }
    if (step.once) return;
    const again = await session.prompter.confirm(`Add another ${step.title.toLowerCase()}?`, { default: false });
    if (!again) return;
  }
}

/** The loan request as it ends, on stdout. */
async function finish(session: LoanSession, output: Output): Promise<void> {
  const loan = session.loanRequest;
  await output.print(loan);
  notice(session.deps, `next: loanctl loan show ${loan.id}`);
}

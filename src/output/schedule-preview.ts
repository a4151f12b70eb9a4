/**
 * The repayment schedule approval terms give, shown before the operator confirms them (`loan
 * approve --preview`, and `loan new` before its approval question): the instalments are what an
 * approval commits the borrower to, so they are seen before yes, not found after. It goes to
 * stderr, so a script's JSON on stdout stays clean. Imported on demand: the table renderer and the
 * repayment module stay out of commands that never preview.
 */
import type { BodyOf } from '../contract/fields.js';
import { buildSchedule, RepaymentTermsError, repaymentTermsFromApproval } from '../repayment/index.js';
import type { OutputDeps } from './output.js';
import { renderSchedulePreview } from './schedule.js';

/**
 * Prints the schedule of `approval` as approved today (deps.now()). Terms the repayment module
 * cannot schedule (the API may still take them) get one warning line instead; approving goes on.
 */
export async function previewApproval(
  approval: BodyOf<'approveLoanRequest'>,
  deps: OutputDeps & { now(): Date },
): Promise<void> {
  const terms = repaymentTermsFromApproval(approval, deps.now());
  let schedule: ReturnType<typeof buildSchedule>;
  try {
    schedule = buildSchedule(terms);
  } catch (error) {
    if (!(error instanceof RepaymentTermsError)) throw error;
    deps.io.stderr.write(`loanctl: warning: no repayment preview: ${error.problems.join('; ')}.\n`);
    return;
  }
  await renderSchedulePreview(schedule, terms, deps);
  deps.io.stderr.write('\n');
}

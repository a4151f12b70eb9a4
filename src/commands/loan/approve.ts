/**
 * `loanctl loan approve ID` with terms (spec 4.19). Before sending, the loan request is read and
 * the approval reviewed on stderr (src/output/approval-review.ts): borrower, requested and approved amount,
 * rate with its unit and yearly, totals, instalments, due dates, and warnings. What the API
 * refuses (an amount above the request) stops there, exit 2, before any question. Asks first on a
 * terminal (declining → exit 130), and asks again when there is a warning; elsewhere it needs
 * `--yes`, which answers the question, not the warnings: each warning needs its own flag
 * (`--reapprove`, `--allow-unsubmitted`, `--allow-high-interest`; exit 2 naming it without). On a
 * terminal the second question is that consent. `--annual-rate` is sent as the rate per tenure
 * unit; `--frequency weekly` as the API's `weekely`. With `--dry-run` nothing is read: only the
 * approval is printed.
 *
 * `--from FILE` approves one loan request a row, each through the same review, on the bulk engine
 * (src/bulk/approvals.ts); the warnings' flags hold for every row.
 */

import { bulkOnly, wantsBulk } from '../../bulk/options.js';
import type { BodyOf } from '../../contract/fields.js';
import type { Deps } from '../../deps.js';
import { loanRequestIn, lookUpLoanRequest } from '../../domain/loan-requests.js';
import { CancelledError, UsageError } from '../../errors.js';
import { httpDate } from '../../http/reply.js';
import { buildOperationBody } from '../../input/body.js';
import { openOutput } from '../../output/output.js';
import type { BulkFlags } from '../common/bulk-options.js';
import { type FieldOptions, fieldInputs } from '../common/field-options.js';
import {
  confirmOrYes,
  type DataOption,
  type LoanIdOptions,
  loanId,
  notice,
  type ProductOption,
  readData,
  resolveProduct,
} from './common.js';

export interface LoanApproveOptions
  extends Partial<LoanIdOptions>,
    ProductOption,
    DataOption,
    FieldOptions<'approveLoanRequest'>,
    BulkFlags {
  yes?: boolean;
  /** The yearly rate instead of --rate (src/input/annual-rate.ts). */
  annualRate?: string;
  /** Replace the terms of a loan request that is already approved (needed with --yes). */
  reapprove?: boolean;
  /** Approve a loan request the borrower never submitted (needed with --yes). */
  allowUnsubmitted?: boolean;
  /** Approve terms whose interest is more than the principal (needed with --yes). */
  allowHighInterest?: boolean;
  /** Show the repayment schedule (on stderr) before asking to confirm. */
  preview?: boolean;
}

export async function runLoanApprove(options: LoanApproveOptions, deps: Deps): Promise<void> {
  if (wantsBulk(options)) return approveFromFile(options, deps);
  if (options.id === undefined) {
    throw new UsageError('Missing the loan request id.', 'For example: loanctl loan approve 172 … (or --from FILE)');
  }
  const id = loanId(options.id);
  const productId = await resolveProduct(options, deps);
  const data = await readData(options, deps);
  const { rateFlag } = await import('../../input/annual-rate.js');
  const rate = rateFlag(options, data?.tenured_in);
  const { body: terms, ignored } = buildOperationBody(
    'approveLoanRequest',
    fieldInputs('approveLoanRequest', { ...options, rate }),
    data,
  );
  for (const key of ignored) notice(deps, `loanctl: ignoring "${key}" in --data: approval terms have no such field.`);
  const { summariseTerms } = await import('../../output/schedule.js');
  const { repaymentTermsFromApproval } = await import('../../repayment/index.js');
  const summary = summariseTerms(repaymentTermsFromApproval(terms));
  const output = await openOutput(deps, 'approveLoanRequest');
  if (options.preview) {
    const { previewApproval } = await import('../../output/schedule-preview.js');
    await previewApproval(terms, deps);
  }
  const api = await deps.api();
  const dryRun = (await deps.settings()).dryRun;
  // Off a terminal without --yes nothing is read: the missing --yes is the one line to fix first.
  if (!options.yes && !deps.isInteractive()) await confirmOrYes(deps, false, '', `loanctl loan approve ${id} … --yes`);
  // The review goes with the questions when they are asked (the second one points at its
  // warning), --quiet or not; under --yes it is a notice like any other.
  const asking = !options.yes && deps.isInteractive() && deps.prompter.note !== undefined;
  const show = (line: string) => (asking ? deps.prompter.note?.(line) : notice(deps, line));
  const secondQuestion = dryRun ? undefined : await reviewBeforeSending(id, productId, terms, options, deps, show);
  await confirmOrYes(
    deps,
    options.yes,
    `Approve loan request ${id}: ${summary}?`,
    `loanctl loan approve ${id} … --yes`,
  );
  if (secondQuestion !== undefined && !options.yes) {
    if (!(await deps.prompter.confirm(secondQuestion, { default: false }))) {
      throw new CancelledError('Cancelled; nothing was sent.');
    }
  }
  const result = await api.call('approveLoanRequest', {
    params: { id },
    productId,
    query: { action: 'approve' },
    body: terms,
  });
  notice(deps, `Approved loan request ${id}: ${summary}.`);
  await output.print(result.data, result.rawBody);
}

/**
 * `loan approve --from FILE`: every row reviewed as one loan at a time is (src/bulk/approvals.ts).
 * The file is the terms; off a terminal `--yes` answers the one question (not under --dry-run),
 * and each warning still needs its own flag.
 */
async function approveFromFile(options: LoanApproveOptions, deps: Deps): Promise<void> {
  if (options.id !== undefined) {
    throw new UsageError(
      `--from reads the loan request of each row from the file; leave out the id (${options.id}).`,
      'Put it in a loan column of the file instead.',
    );
  }
  const fieldFlags = fieldInputs('approveLoanRequest', options)
    .filter((field) => field.value !== undefined)
    .map((field) => field.flag);
  const from = bulkOnly(options, ['data', 'preview', 'annualRate'], fieldFlags);
  if (!(await deps.settings()).dryRun) {
    await confirmOrYes(
      deps,
      options.yes,
      `Approve the loan requests of ${from}, each after its review?`,
      `loanctl loan approve --from ${from} --yes`,
    );
  }
  const { runBulkCreate } = await import('../../bulk/run.js');
  const { reapprove, allowUnsubmitted, allowHighInterest } = options;
  await runBulkCreate(
    'approval',
    { ...options, from, accepted: { reapprove, allowUnsubmitted, allowHighInterest } },
    deps,
  );
}

/**
 * Reads the loan request, shows the review and its warnings (`show`), and refuses (exit 2) what
 * the API would refuse, and under `--yes` each warning its flag does not accept. Returns the
 * question to ask again on a terminal when there is a warning.
 */
async function reviewBeforeSending(
  id: number,
  productId: number,
  terms: BodyOf<'approveLoanRequest'>,
  options: LoanApproveOptions,
  deps: Deps,
  show: (line: string) => void,
): Promise<string | undefined> {
  const lookup = await lookUpLoanRequest(await deps.api(), productId, id);
  const loan = loanRequestIn(lookup, productId, id);
  const { reviewApproval, unacceptedWarnings } = await import('../../output/approval-review.js');
  // "If approved today" by the server's clock (its Date header), which dates the approval.
  const review = reviewApproval(loan, terms, httpDate(lookup.dateHeader) ?? deps.now());
  for (const line of review.lines) show(line);
  if (review.refusals.length > 0) {
    throw new UsageError(
      `Loan request ${id} cannot be approved on these terms: ${review.refusals.join(' ')} Nothing was sent.`,
      `Pass --approved-amount at most ${loan.amount}.`,
    );
  }
  const unaccepted = unacceptedWarnings(review, options);
  if (options.yes && unaccepted.length > 0) {
    const flags = unaccepted.map((warning) => warning.flag).join(' ');
    throw new UsageError(
      `Not approved: ${unaccepted.map((warning) => warning.text).join(' ')} Pass ${flags} with --yes to approve anyway (nothing was sent).`,
    );
  }
  if (review.warnings.length === 0) return undefined;
  return review.warnings.some((warning) => warning.flag === '--reapprove')
    ? `Loan request ${id} is already approved: replace its terms anyway?`
    : 'Approve anyway, despite the warning above?';
}

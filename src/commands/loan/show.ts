/**
 * `loanctl loan show ID`: one view of a loan request with its progress, bank details, guarantors
 * and employment, the five requests sent at once (src/domain/loan-requests.ts reads them).
 */
import type { Deps } from '../../deps.js';
import { readLoanRequest } from '../../domain/loan-requests.js';
import { LOAN_VIEW_OUTPUT, loanViewComposite } from '../../output/loan-view.js';
import { openOutput } from '../../output/output.js';
import { type LoanIdOptions, loanId, resolveProduct } from './common.js';

export interface LoanShowOptions extends LoanIdOptions {
  /** Open its page in the lender dashboard instead (`loan open`). */
  web?: boolean;
}

export async function runLoanShow(options: LoanShowOptions, deps: Deps): Promise<void> {
  const id = loanId(options.id);
  if (options.web) {
    const { openLoanPage } = await import('../common/open-url.js');
    return openLoanPage(id, deps);
  }
  const productId = await resolveProduct(options, deps);
  const output = await openOutput(deps, LOAN_VIEW_OUTPUT);
  const api = await deps.api();
  const { view, envelopes } = await readLoanRequest(api, productId, id);
  await output.composite(loanViewComposite(view), envelopes);
}

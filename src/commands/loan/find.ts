/**
 * `loanctl loan find --reference R`: the loan request with that reference. The API reads a loan
 * request only by id, so this walks the product's list client-side, newest first, over streamed
 * pages, and stops at the match; a terminal shows the pages read as the walk goes, and stderr
 * says how many loan requests were scanned.
 */
import { stageOf, stageWords } from '../../contract/states.js';
import type { Deps } from '../../deps.js';
import { findLoanByReference } from '../../domain/loan-find.js';
import { NoAccessError } from '../../errors.js';
import { parseText } from '../../input/values.js';
import { notice } from '../../output/notice.js';
import { openOutput } from '../../output/output.js';
import { startWalkProgress } from '../../output/walk-progress.js';
import { stageFlag } from '../common/loan-filter-options.js';
import { type ProductOption, resolveProduct } from './common.js';

export interface LoanFindOptions extends ProductOption {
  reference: string;
  stage?: string;
}

export async function runLoanFind(options: LoanFindOptions, deps: Deps): Promise<void> {
  const reference = parseText(options.reference, '--reference');
  const stage = options.stage === undefined ? undefined : stageFlag(options.stage, '--stage');
  const productId = await resolveProduct(options, deps);
  const output = await openOutput(deps, 'listLoanRequests');
  const api = await deps.api();
  const progress = startWalkProgress(deps, 'loan requests');
  const { loan, scanned } = await findLoanByReference(api, productId, reference, progress.page).finally(() =>
    progress.stop(),
  );
  notice(deps, `Scanned ${scanned} loan request${scanned === 1 ? '' : 's'}.`);
  if (!loan) {
    throw new NoAccessError(
      `No loan request with reference ${reference} in product ${productId}.`,
      'Check the reference, or the product (--product).',
    );
  }
  if (stage !== undefined && stageOf(loan) !== stage) {
    throw new NoAccessError(
      `Loan request ${reference} (id ${loan.id}) is ${stageWords(stageOf(loan))}, not ${stageWords(stage)}.`,
      'Leave out --stage to see it wherever it stands.',
    );
  }
  await output.print(loan);
}

/** `loanctl loan guarantors ID`: the guarantors of a loan request (spec 4.16). */
import type { Deps } from '../../deps.js';
import { printRows } from '../../output/print.js';
import { type LoanIdOptions, loanId, resolveProduct } from './common.js';

export type LoanGuarantorsOptions = LoanIdOptions;

export async function runLoanGuarantors(options: LoanGuarantorsOptions, deps: Deps): Promise<void> {
  const id = loanId(options.id);
  const productId = await resolveProduct(options, deps);
  const api = await deps.api();
  const result = await api.call('getGuarantors', { params: { id }, productId });
  await printRows(deps, result, (result.data ?? []) as unknown[], 'guarantor');
}

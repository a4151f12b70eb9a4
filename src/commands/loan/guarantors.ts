/** `loanctl loan guarantors ID`: the guarantors of a loan request (spec 4.16). */
import type { Deps } from '../../deps.js';
import { openOutput } from '../../output/output.js';
import { type LoanIdOptions, loanId, resolveProduct } from './common.js';

export type LoanGuarantorsOptions = LoanIdOptions;

export async function runLoanGuarantors(options: LoanGuarantorsOptions, deps: Deps): Promise<void> {
  const id = loanId(options.id);
  const productId = await resolveProduct(options, deps);
  const output = await openOutput(deps, 'getGuarantors');
  const api = await deps.api();
  const result = await api.call('getGuarantors', { params: { id }, productId });
  await output.print(result.data ?? [], result.rawBody);
}

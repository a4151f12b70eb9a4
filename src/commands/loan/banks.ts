/** `loanctl loan banks ID`: the bank details of a loan request (spec 4.13). */
import type { Deps } from '../../deps.js';
import { openOutput } from '../../output/output.js';
import { type LoanIdOptions, loanId, resolveProduct } from './common.js';

export type LoanBanksOptions = LoanIdOptions;

export async function runLoanBanks(options: LoanBanksOptions, deps: Deps): Promise<void> {
  const id = loanId(options.id);
  const productId = await resolveProduct(options, deps);
  const output = await openOutput(deps, 'getBankDetails');
  const api = await deps.api();
  const result = await api.call('getBankDetails', { params: { id }, productId });
  await output.print(result.data ?? [], result.rawBody);
}

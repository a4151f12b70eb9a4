/**
 * `loanctl loan employment ID`: the employment information of a loan request (spec 4.18). None
 * yet is not an error: JSON prints `null`, a table says so on stderr.
 */
import type { Deps } from '../../deps.js';
import { openOutput } from '../../output/output.js';
import { type LoanIdOptions, loanId, resolveProduct } from './common.js';

export type LoanEmploymentOptions = LoanIdOptions;

export async function runLoanEmployment(options: LoanEmploymentOptions, deps: Deps): Promise<void> {
  const id = loanId(options.id);
  const productId = await resolveProduct(options, deps);
  const output = await openOutput(deps, 'getEmployment', { none: 'No employment information yet.' });
  const api = await deps.api();
  const result = await api.call('getEmployment', { params: { id }, productId });
  await output.print(result.data ?? null, result.rawBody);
}

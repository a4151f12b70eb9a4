/** `loanctl loan progress ID`: the progress marker of a loan request (spec 4.10). */
import type { Deps } from '../../deps.js';
import { openOutput } from '../../output/output.js';
import { type LoanIdOptions, loanId, resolveProduct } from './common.js';

export type LoanProgressOptions = LoanIdOptions;

export async function runLoanProgress(options: LoanProgressOptions, deps: Deps): Promise<void> {
  const id = loanId(options.id);
  const productId = await resolveProduct(options, deps);
  const output = await openOutput(deps, 'getProgress', { scalar: 'progress' });
  const api = await deps.api();
  const result = await api.call('getProgress', { params: { id }, productId });
  await output.scalar(String(result.data ?? ''), result.rawBody);
}

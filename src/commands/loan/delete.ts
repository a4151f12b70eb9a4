/**
 * `loanctl loan delete ID` (spec 4.7). Asks first on a terminal (declining → exit 130);
 * elsewhere it needs `--yes` (else exit 2 naming it). The reply's body is not in the spec: JSON
 * output prints its payload as received (the sandbox's is null).
 */
import type { Deps } from '../../deps.js';
import { openOutput } from '../../output/output.js';
import { confirmOrYes, type LoanIdOptions, loanId, notice, resolveProduct } from './common.js';

export interface LoanDeleteOptions extends LoanIdOptions {
  yes?: boolean;
}

export async function runLoanDelete(options: LoanDeleteOptions, deps: Deps): Promise<void> {
  const id = loanId(options.id);
  const productId = await resolveProduct(options, deps);
  const output = await openOutput(deps, 'deleteLoanRequest');
  await confirmOrYes(
    deps,
    options.yes,
    `Delete loan request ${id}? This cannot be undone.`,
    `loanctl loan delete ${id} --yes`,
  );
  const api = await deps.api();
  const result = await api.call('deleteLoanRequest', { params: { id }, productId });
  notice(deps, `Deleted loan request ${id}.`);
  await output.print(result.payload, result.rawBody);
}

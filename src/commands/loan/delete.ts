/**
 * `loanctl loan delete ID` (spec 4.7). Asks first on a terminal (declining → exit 130);
 * elsewhere it needs `--yes` (else exit 2 naming it). The reply's body is not in the spec (the
 * sandbox's data is null, which a script read as `null`): it prints what loanctl knows,
 * `{id, deleted: true}`; `--raw` prints the reply as received.
 */
import type { Deps } from '../../deps.js';
import { openOutput } from '../../output/output.js';
import { confirmOrYes, type LoanIdOptions, loanId, notice, resolveProduct } from './common.js';

const DELETED_FIELDS = ['id', 'deleted'];

export interface LoanDeleteOptions extends LoanIdOptions {
  yes?: boolean;
}

export async function runLoanDelete(options: LoanDeleteOptions, deps: Deps): Promise<void> {
  const id = loanId(options.id);
  const productId = await resolveProduct(options, deps);
  const output = await openOutput(deps, { names: () => DELETED_FIELDS, sends: true });
  await confirmOrYes(
    deps,
    options.yes,
    `Delete loan request ${id}? This cannot be undone.`,
    `loanctl loan delete ${id} --yes`,
  );
  const api = await deps.api();
  const result = await api.call('deleteLoanRequest', { params: { id }, productId });
  notice(deps, `Deleted loan request ${id}.`);
  await output.print({ id, deleted: true }, result.rawBody);
}

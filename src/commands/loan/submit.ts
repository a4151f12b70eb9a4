/** `loanctl loan submit ID`: submit a loan request for consideration (spec 4.14); prints the loan request (data1). */
import type { LoanRequest } from '../../contract/schemas.js';
import type { Deps } from '../../deps.js';
import { openOutput } from '../../output/output.js';
import { type LoanIdOptions, loanId, notice, resolveProduct } from './common.js';

export type LoanSubmitOptions = LoanIdOptions;

export async function runLoanSubmit(options: LoanSubmitOptions, deps: Deps): Promise<void> {
  const id = loanId(options.id);
  const productId = await resolveProduct(options, deps);
  const output = await openOutput(deps, 'submitLoanRequest');
  const api = await deps.api();
  const result = await api.call('submitLoanRequest', { params: { id }, productId });
  const loan = result.payload as LoanRequest;
  notice(deps, `Submitted loan request ${id}${loan?.status ? ` (status ${loan.status})` : ''}.`);
  await output.print(loan, result.rawBody);
  notice(
    deps,
    `next: loanctl loan approve ${id} --approved-amount N --rate N --tenure N --tenured-in months --rate-type simple-interest --frequency monthly`,
  );
}

/** `loanctl loan submit ID`: submit a loan request for consideration (spec 4.14); prints the loan request (data1). */
import type { LoanRequest } from '../../contract/schemas.js';
import type { Deps } from '../../deps.js';
import { checkFieldsBeforeSending } from '../../input/check-fields.js';
import { printRecord } from '../../output/print.js';
import { type LoanIdOptions, loanId, notice, resolveProduct } from './common.js';

export type LoanSubmitOptions = LoanIdOptions;

export async function runLoanSubmit(options: LoanSubmitOptions, deps: Deps): Promise<void> {
  const id = loanId(options.id);
  const productId = await resolveProduct(options, deps);
  checkFieldsBeforeSending(deps, 'loanRequest');
  const api = await deps.api();
  const result = await api.call('submitLoanRequest', { params: { id }, productId });
  const loan = result.payload as LoanRequest;
  notice(deps, `Submitted loan request ${id}${loan?.status ? ` (status ${loan.status})` : ''}.`);
  await printRecord(deps, result, loan, 'loanRequest');
  notice(
    deps,
    `next: loanctl loan approve ${id} --approved-amount N --rate N --tenure N --tenured-in months --rate-type simple-interest --frequency monthly`,
  );
}

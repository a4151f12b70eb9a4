/** `loanctl loan update ID --purpose TEXT`: change the purpose of a loan request (spec 4.6). */
import type { Deps } from '../../deps.js';
import { buildOperationBody } from '../../input/body.js';
import { openOutput } from '../../output/output.js';
import { type FieldOptions, fieldInputs } from '../common/field-options.js';
import { type DataOption, type LoanIdOptions, loanId, notice, readData, resolveProduct } from './common.js';

export type LoanUpdateOptions = LoanIdOptions & DataOption & FieldOptions<'updateLoanRequest'>;

export async function runLoanUpdate(options: LoanUpdateOptions, deps: Deps): Promise<void> {
  const id = loanId(options.id);
  const productId = await resolveProduct(options, deps);
  const data = await readData(options, deps);
  const { body, ignored } = buildOperationBody('updateLoanRequest', fieldInputs('updateLoanRequest', options), data);
  for (const key of ignored) notice(deps, `loanctl: ignoring "${key}" in --data: only the purpose can be updated.`);
  const output = await openOutput(deps, 'updateLoanRequest');
  const api = await deps.api();
  const result = await api.call('updateLoanRequest', { params: { id }, productId, body });
  notice(deps, `Updated the purpose of loan request ${id}.`);
  await output.print(result.data, result.rawBody);
}

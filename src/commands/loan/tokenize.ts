/**
 * `loanctl loan tokenize ID`: tokenize the linker of a loan request (spec 4.8). The endpoint takes
 * no product id; `--product` is accepted like on every loan verb and not sent.
 */
import type { LoanRequest } from '../../contract/schemas.js';
import type { Deps } from '../../deps.js';
import { checkFieldsBeforeSending } from '../../input/check-fields.js';
import { parseId } from '../../input/values.js';
import { printRecord } from '../../output/print.js';
import { type LoanIdOptions, loanId, notice } from './common.js';

export type LoanTokenizeOptions = LoanIdOptions;

export async function runLoanTokenize(options: LoanTokenizeOptions, deps: Deps): Promise<void> {
  const id = loanId(options.id);
  if (options.product !== undefined) parseId(options.product, '--product'); // checked like elsewhere, not sent
  checkFieldsBeforeSending(deps, 'loanRequest');
  const api = await deps.api();
  const result = await api.call('tokenizeLinker', { params: { id } });
  const loan = result.data as LoanRequest;
  notice(
    deps,
    `Tokenized the linker of loan request ${id}${loan?.linker_ids ? `: ${loan.linker_ids.join(', ')}` : ''}.`,
  );
  await printRecord(deps, result, loan, 'loanRequest');
}

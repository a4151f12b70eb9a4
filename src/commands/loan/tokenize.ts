/**
 * `loanctl loan tokenize ID`: tokenize the linker of a loan request (spec 4.8). The endpoint takes
 * no product id; `--product` is accepted like on every loan verb and not sent.
 */
import type { LoanRequest } from '../../contract/schemas.js';
import type { Deps } from '../../deps.js';
import { parseId } from '../../input/values.js';
import { openOutput } from '../../output/output.js';
import { type LoanIdOptions, loanId, notice } from './common.js';

export type LoanTokenizeOptions = LoanIdOptions;

export async function runLoanTokenize(options: LoanTokenizeOptions, deps: Deps): Promise<void> {
  const id = loanId(options.id);
  if (options.product !== undefined) parseId(options.product, '--product'); // checked like elsewhere, not sent
  const output = await openOutput(deps, 'tokenizeLinker');
  const api = await deps.api();
  const result = await api.call('tokenizeLinker', { params: { id } });
  const loan = result.data as LoanRequest;
  notice(
    deps,
    `Tokenized the linker of loan request ${id}${loan?.linker_ids ? `: ${loan.linker_ids.join(', ')}` : ''}.`,
  );
  await output.print(loan, result.rawBody);
}

/**
 * `loanctl loan approve ID` with terms (spec 4.19). Asks first on a terminal (declining → exit
 * 130); elsewhere it needs `--yes`. `--frequency weekly` is sent as the API's `weekely`.
 */
import type { Deps } from '../../deps.js';
import { buildOperationBody } from '../../input/body.js';
import { openOutput } from '../../output/output.js';
import { type FieldOptions, fieldInputs } from '../common/field-options.js';
import {
  confirmOrYes,
  type DataOption,
  type LoanIdOptions,
  loanId,
  notice,
  readData,
  resolveProduct,
} from './common.js';

export interface LoanApproveOptions extends LoanIdOptions, DataOption, FieldOptions<'approveLoanRequest'> {
  yes?: boolean;
  /** Show the repayment schedule (on stderr) before asking to confirm. */
  preview?: boolean;
}

export async function runLoanApprove(options: LoanApproveOptions, deps: Deps): Promise<void> {
  const id = loanId(options.id);
  const productId = await resolveProduct(options, deps);
  const data = await readData(options, deps);
  const { body: terms, ignored } = buildOperationBody(
    'approveLoanRequest',
    fieldInputs('approveLoanRequest', options),
    data,
  );
  for (const key of ignored) notice(deps, `loanctl: ignoring "${key}" in --data: approval terms have no such field.`);
  const { summariseTerms } = await import('../../schedule/render.js');
  const { repaymentTermsFromApproval } = await import('../../repayment/index.js');
  const summary = summariseTerms(repaymentTermsFromApproval(terms));
  const output = await openOutput(deps, 'approveLoanRequest');
  if (options.preview) {
    const { previewApproval } = await import('../../schedule/preview.js');
    await previewApproval(terms, deps);
  }
  await confirmOrYes(
    deps,
    options.yes,
    `Approve loan request ${id}: ${summary}?`,
    `loanctl loan approve ${id} … --yes`,
  );
  const api = await deps.api();
  const result = await api.call('approveLoanRequest', {
    params: { id },
    productId,
    query: { action: 'approve' },
    body: terms,
  });
  notice(deps, `Approved loan request ${id}: ${summary}.`);
  await output.print(result.data, result.rawBody);
}

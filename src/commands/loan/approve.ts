/**
 * `loanctl loan approve ID` with terms (spec 4.19). Asks first on a terminal (declining → exit
 * 130); elsewhere it needs `--yes`. `--frequency weekly` is sent as the API's `weekely`.
 */
import { ApprovalTerms, type LoanRequest } from '../../contract/schemas.js';
import type { Deps } from '../../deps.js';
import { buildBody } from '../../input/body.js';
import { checkFieldsBeforeSending } from '../../input/check-fields.js';
import {
  parseAmount,
  parseBoolean,
  parseFrequency,
  parseNonNegativeNumber,
  parsePositiveInt,
  parseRateType,
  parseTenuredIn,
  parseWholeNumber,
} from '../../input/values.js';
import { printRecord } from '../../output/print.js';
import type { RepaymentTermFlags } from '../../schedule/run.js';
import {
  confirmOrYes,
  type DataOption,
  type LoanIdOptions,
  loanId,
  notice,
  readData,
  resolveProduct,
} from './common.js';

export interface LoanApproveOptions extends LoanIdOptions, DataOption, RepaymentTermFlags {
  approvedAmount?: string;
  note?: string;
  yes?: boolean;
  /** Show the repayment schedule (on stderr) before asking to confirm. */
  preview?: boolean;
}

export async function runLoanApprove(options: LoanApproveOptions, deps: Deps): Promise<void> {
  const id = loanId(options.id);
  const productId = await resolveProduct(options, deps);
  const data = await readData(options, deps);
  const { body: terms, ignored } = buildBody(
    ApprovalTerms,
    [
      { key: 'approved_amount', flag: '--approved-amount', value: options.approvedAmount, parse: parseAmount },
      { key: 'rate', flag: '--rate', value: options.rate, parse: parseNonNegativeNumber },
      { key: 'tenure', flag: '--tenure', value: options.tenure, parse: parsePositiveInt },
      { key: 'tenured_in', flag: '--tenured-in', value: options.tenuredIn, parse: parseTenuredIn },
      { key: 'rate_type', flag: '--rate-type', value: options.rateType, parse: parseRateType },
      { key: 'frequency', flag: '--frequency', value: options.frequency, parse: parseFrequency },
      { key: 'grace_period', flag: '--grace-period', value: options.gracePeriod, parse: parseWholeNumber },
      { key: 'exclude_weekends', flag: '--exclude-weekends', value: options.excludeWeekends, parse: parseBoolean },
      { key: 'note', flag: '--note', value: options.note },
    ],
    data,
  );
  for (const key of ignored) notice(deps, `loanctl: ignoring "${key}" in --data: approval terms have no such field.`);
  const { summariseTerms } = await import('../../schedule/render.js');
  const { repaymentTermsFromApproval } = await import('../../repayment/index.js');
  const summary = summariseTerms(repaymentTermsFromApproval(terms));
  checkFieldsBeforeSending(deps, 'loanRequest');
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
  await printRecord(deps, result, result.payload as LoanRequest, 'loanRequest');
}

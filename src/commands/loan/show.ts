/**
 * `loanctl loan show ID`: one view of a loan request with its progress, bank details, guarantors
 * and employment, the five requests sent at once (Promise.allSettled).
 *
 * The API has no "get one loan request": the request itself is found through the list (spec 4.5)
 * with `direction=ASC&cursor=ID-1&limit=1`, whose first row is the loan request ID if it exists in
 * the caller's organisation and product. Anything else is exit 4.
 */
import type {
  BankDetailsRecord,
  EmploymentRecord,
  GuarantorRecord,
  LoanRequest,
  LoanRequestPage,
} from '../../contract/schemas.js';
import type { Deps } from '../../deps.js';
import { NoAccessError } from '../../errors.js';
import type { ApiResult } from '../../http/client.js';
import { type LoanIdOptions, loanId, resolveProduct } from './common.js';
import { printLoanView } from './print.js';

export type LoanShowOptions = LoanIdOptions;

export interface LoanView {
  loan_request: LoanRequest;
  progress: string;
  bank_details: BankDetailsRecord[];
  guarantors: GuarantorRecord[];
  employment: EmploymentRecord | null;
}

export async function runLoanShow(options: LoanShowOptions, deps: Deps): Promise<void> {
  const id = loanId(options.id);
  const productId = await resolveProduct(options, deps);
  const api = await deps.api();
  const on = { params: { id }, productId };
  const settled = await Promise.allSettled([
    api.call('listLoanRequests', { productId, query: { direction: 'ASC', cursor: id - 1, limit: 1 } }),
    api.call('getProgress', on),
    api.call('getBankDetails', on),
    api.call('getGuarantors', on),
    api.call('getEmployment', on),
  ]);
  // The lookup speaks first: "not found" is clearer than whichever sub-request failed.
  const [lookup, ...rest] = settled;
  if (lookup.status === 'rejected') throw lookup.reason;
  const found = (lookup.value.data as LoanRequestPage).loan_requests[0];
  if (!found || found.id !== id) {
    throw new NoAccessError(
      `No loan request ${id} under product ${productId} in your organisation.`,
      'Check the id with `loanctl loan list`, and the product with --product.',
    );
  }
  const failed = rest.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  const [progress, banks, guarantors, employment] = rest.map(
    (outcome) => (outcome as PromiseFulfilledResult<ApiResult>).value,
  ) as [ApiResult, ApiResult, ApiResult, ApiResult];

  const view: LoanView = {
    loan_request: found,
    progress: String(progress.data ?? ''),
    bank_details: (banks.data ?? []) as BankDetailsRecord[],
    guarantors: (guarantors.data ?? []) as GuarantorRecord[],
    employment: (employment.data ?? null) as EmploymentRecord | null,
  };
  const envelopes = {
    loan_request: lookup.value.envelope,
    progress: progress.envelope,
    bank_details: banks.envelope,
    guarantors: guarantors.envelope,
    employment: employment.envelope,
  };
  await printLoanView(deps, view, envelopes);
}

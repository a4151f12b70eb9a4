/**
 * Finding a loan request and reading what is attached to it: what `loan show` prints and what
 * `loan new --resume` picks up from.
 *
 * The API has no "get one loan request": the request itself is found through the list (spec 4.5)
 * with `direction=ASC&cursor=ID-1&limit=1`, whose first row is the loan request ID if it exists in
 * the caller's organisation and product. Anything else is exit 4. What is attached is read with
 * one GET each (progress, bank details, guarantors, employment); the API has no GET for business
 * information or documents, so those cannot be read back.
 */

import type { ReplyData } from '../contract/endpoints.js';
import type {
  BankDetailsRecord,
  EmploymentRecord,
  GuarantorRecord,
  LoanRequest,
  LoanRequestPage,
} from '../contract/schemas.js';
import { NoAccessError } from '../errors.js';
import type { ApiClient, ApiResult } from '../http/api-client.js';

/** A loan request with everything the API lets a client read back about it. */
export interface LoanView {
  loan_request: LoanRequest;
  progress: string;
  bank_details: BankDetailsRecord[];
  guarantors: GuarantorRecord[];
  employment: EmploymentRecord | null;
}

/** The envelope of each reply a LoanView was read from, under the same keys (for `--raw`). */
export type LoanViewEnvelopes = Record<keyof LoanView, unknown>;

/** What is attached to a loan request, as replied (each typed by its operation's reply). */
export interface Attachments {
  progress: ApiResult<ReplyData<'getProgress'>>;
  bankDetails: ApiResult<ReplyData<'getBankDetails'>>;
  guarantors: ApiResult<ReplyData<'getGuarantors'>>;
  employment: ApiResult<ReplyData<'getEmployment'>>;
}

/** The request that finds loan request `id` (its first row is it, if it exists). */
export function lookUpLoanRequest(api: ApiClient, productId: number, id: number): Promise<ApiResult> {
  return api.call('listLoanRequests', { productId, query: { direction: 'ASC', cursor: id - 1, limit: 1 } });
}

/** The loan request `id` out of its look-up's reply, or exit 4. */
export function loanRequestIn(lookup: ApiResult, productId: number, id: number): LoanRequest {
  const found = (lookup.data as LoanRequestPage).loan_requests[0];
  if (!found || found.id !== id) {
    throw new NoAccessError(
      `No loan request ${id} under product ${productId} in your organisation.`,
      'Check the id with `loanctl loan list`, and the product with --product.',
    );
  }
  return found;
}

/** Loan request `id` of the product, or exit 4. */
export async function findLoanRequest(api: ApiClient, productId: number, id: number): Promise<LoanRequest> {
  return loanRequestIn(await lookUpLoanRequest(api, productId, id), productId, id);
}

/** The product's newest loan request (the highest id), or undefined when it has none. */
export async function newestLoanRequest(api: ApiClient, productId: number): Promise<LoanRequest | undefined> {
  const result = await api.call('listLoanRequests', { productId, query: { direction: 'DESC', limit: 1 } });
  return (result.data as LoanRequestPage).loan_requests[0];
}

/** The four GETs of what is attached to loan request `id`, sent at once (one promise each). */
function requestAttachments(api: ApiClient, productId: number, id: number) {
  const on = { params: { id }, productId };
  return [
    api.call('getProgress', on),
    api.call('getBankDetails', on),
    api.call('getGuarantors', on),
    api.call('getEmployment', on),
  ] as const;
}

/** What is attached to loan request `id`: the four GETs at once; the first failure rejects. */
export async function readAttachments(api: ApiClient, productId: number, id: number): Promise<Attachments> {
  const [progress, bankDetails, guarantors, employment] = await Promise.all(requestAttachments(api, productId, id));
  return { progress, bankDetails, guarantors, employment };
}

function attachmentsOf([progress, bankDetails, guarantors, employment]: ApiResult[]): Attachments {
  return { progress, bankDetails, guarantors, employment } as Attachments;
}

/**
 * Loan request `id` with everything attached: the five requests sent at once
 * (Promise.allSettled). The look-up speaks first: "not found" is clearer than whichever
 * sub-request failed.
 */
export async function readLoanRequest(
  api: ApiClient,
  productId: number,
  id: number,
): Promise<{ view: LoanView; envelopes: LoanViewEnvelopes }> {
  const [lookup, ...rest] = await Promise.allSettled([
    lookUpLoanRequest(api, productId, id),
    ...requestAttachments(api, productId, id),
  ]);
  if (lookup.status === 'rejected') throw lookup.reason;
  const found = loanRequestIn(lookup.value, productId, id);
  const failed = rest.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  const { progress, bankDetails, guarantors, employment } = attachmentsOf(
    rest.map((outcome) => (outcome as PromiseFulfilledResult<ApiResult>).value),
  );
  const view: LoanView = {
    loan_request: found,
    progress: String(progress.data ?? ''),
    bank_details: (bankDetails.data ?? []) as BankDetailsRecord[],
    guarantors: (guarantors.data ?? []) as GuarantorRecord[],
    employment: (employment.data ?? null) as EmploymentRecord | null,
  };
  const envelopes: LoanViewEnvelopes = {
    loan_request: lookup.value.envelope,
    progress: progress.envelope,
    bank_details: bankDetails.envelope,
    guarantors: guarantors.envelope,
    employment: employment.envelope,
  };
  return { view, envelopes };
}

/**
 * Finding a loan request by its reference (issue 12). The API reads a loan request only by id, so
 * this walks the product's list newest first (most look-ups are for recent requests), a page held
 * at a time with the next one fetched ahead, and stops at the first match.
 */
import type { LoanRequest } from '../contract/schemas.js';
import type { ApiClient } from '../http/client.js';
import { loanRequestPages } from './pages.js';

/** The page size of the walk: the most the sandbox serves at once keeps the request count low. */
const PAGE = 100;

export async function findLoanByReference(
  api: ApiClient,
  productId: number,
  reference: string,
): Promise<{ loan: LoanRequest | undefined; scanned: number }> {
  const wanted = reference.trim().toLowerCase();
  let scanned = 0;
  const pages = loanRequestPages(api, productId, { direction: 'DESC', limit: PAGE }, { prefetch: true });
  for await (const { loanRequests } of pages) {
    for (const loan of loanRequests) {
      scanned++;
      if (String(loan.reference).toLowerCase() === wanted) return { loan, scanned };
    }
  }
  return { loan: undefined, scanned };
}

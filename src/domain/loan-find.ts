/**
 * Finding a loan request by its reference. The API reads a loan request only by id, so
 * this walks the product's list newest first (most look-ups are for recent requests), a page held
 * at a time with the next one fetched ahead (the pages follow a cursor, so they cannot be asked
 * for several at once), and stops at the first match; `pageSeen` is told of each page (the progress line).
 */
import type { LoanRequest } from '../contract/schemas.js';
import type { ApiClient } from '../http/api-client.js';
import { loanRequestPages, type PageSeen } from './pages.js';

/** The page size of the walk: the most the sandbox serves at once keeps the request count low. */
const PAGE = 100;

export async function findLoanByReference(
  api: ApiClient,
  productId: number,
  reference: string,
  pageSeen: PageSeen = () => {},
): Promise<{ loan: LoanRequest | undefined; scanned: number }> {
  const wanted = reference.trim().toLowerCase();
  let scanned = 0;
  const pages = loanRequestPages(api, productId, { direction: 'DESC', limit: PAGE }, { prefetch: true });
  for await (const { loanRequests } of pages) {
    const index = loanRequests.findIndex((loan) => String(loan.reference).toLowerCase() === wanted);
    const looked = index === -1 ? loanRequests.length : index + 1;
    scanned += looked;
    pageSeen(looked, index === -1 ? 0 : 1);
    if (index !== -1) return { loan: loanRequests[index], scanned };
  }
  return { loan: undefined, scanned };
}

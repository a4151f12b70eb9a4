/**
 * Finding a loan request by its reference. The API reads a loan request only by id, so
 * this walks the product's list newest first (most look-ups are for recent requests), a page held
 * at a time with the next one fetched ahead (the pages follow a cursor, so they cannot be asked
 * for several at once), and stops at the first match; `pageSeen` is told of each page (the progress line).
 * Many references at once share one walk: `ReferenceWalk`.
 */
import type { LoanRequest } from '../contract/schemas.js';
import type { ApiClient } from '../http/api-client.js';
import { type LoanRequestPageOf, loanRequestPages, type PageSeen } from './pages.js';

/** The page size of the walk: the most the sandbox serves at once keeps the request count low. */
const PAGE = 100;

export async function findLoanByReference(
  api: ApiClient,
  productId: number,
  reference: string,
  pageSeen: PageSeen = () => {},
): Promise<{ loan: LoanRequest | undefined; scanned: number }> {
  const wanted = referenceKey(reference);
  let scanned = 0;
  const pages = loanRequestPages(api, productId, { direction: 'DESC', limit: PAGE }, { prefetch: true });
  for await (const { loanRequests } of pages) {
    const index = loanRequests.findIndex((loan) => referenceKey(loan.reference) === wanted);
    const looked = index === -1 ? loanRequests.length : index + 1;
    scanned += looked;
    pageSeen(looked, index === -1 ? 0 : 1);
    if (index !== -1) return { loan: loanRequests[index], scanned };
  }
  return { loan: undefined, scanned };
}

/** A reference as two are compared: any case, no spaces around; a missing one matches nothing. */
function referenceKey(reference: unknown): string | undefined {
  return typeof reference === 'string' && reference.trim() !== '' ? reference.trim().toLowerCase() : undefined;
}

/** Someone waiting for a reference: told its loan request's id, or undefined once the list has none. */
interface Waiting {
  resolve(id: number | undefined): void;
  reject(error: unknown): void;
}

/**
 * The references of one product found with one walk of its list, however many are asked for
 * (`loan approve --from`, a row each). A `find` joins the walk in progress, or resumes it where it
 * stopped; the walk stops once every reference asked for so far is found, and keeps the id of
 * every reference it passed, so a reference it already passed costs no request. Newest first, as
 * `findLoanByReference` walks: a reference on two loan requests names the newer.
 */
export class ReferenceWalk {
  /** Every reference passed (lower-case), with its loan request's id. */
  private readonly passed = new Map<string, number>();
  private readonly wanted = new Map<string, Waiting[]>();
  private pages: AsyncIterator<LoanRequestPageOf, void> | undefined;
  private walking = false;
  private ended = false;

  /** `api` is asked for at each walk: a bulk run swaps its client once the server is down. */
  constructor(
    private readonly api: () => ApiClient,
    private readonly productId: number,
  ) {}

  /** The id of the loan request with this reference (any case), or undefined when the product has none. */
  find(reference: string): Promise<number | undefined> {
    const key = referenceKey(reference);
    if (key === undefined) return Promise.resolve(undefined);
    const id = this.passed.get(key);
    if (id !== undefined || this.ended) return Promise.resolve(id);
    return new Promise((resolve, reject) => {
      this.wanted.set(key, [...(this.wanted.get(key) ?? []), { resolve, reject }]);
      if (!this.walking) void this.walk();
    });
  }

  /** Reads pages while a reference is wanted; at the list's end, what is still wanted is not there. */
  private async walk(): Promise<void> {
    this.walking = true;
    try {
      this.pages ??= loanRequestPages(
        this.api(),
        this.productId,
        { direction: 'DESC', limit: PAGE },
        { prefetch: true },
      );
      while (this.wanted.size > 0) {
        const next = await this.pages.next();
        if (next.done) {
          this.ended = true;
          this.settle((waiting) => waiting.resolve(undefined));
          return;
        }
        for (const loan of next.value.loanRequests) {
          const key = referenceKey(loan.reference);
          if (key !== undefined) this.pass(key, loan.id);
        }
      }
    } catch (error) {
      // The page's error is each waiting row's; a later find starts the walk again from the newest.
      this.pages = undefined;
      this.settle((waiting) => waiting.reject(error));
    } finally {
      this.walking = false;
    }
  }

  private pass(key: string, id: number): void {
    if (this.passed.has(key)) return;
    this.passed.set(key, id);
    for (const waiting of this.wanted.get(key) ?? []) waiting.resolve(id);
    this.wanted.delete(key);
  }

  private settle(each: (waiting: Waiting) => void): void {
    for (const list of this.wanted.values()) for (const waiting of list) each(waiting);
    this.wanted.clear();
  }
}

/**
 * Finding loan requests that match a filter. The API has no search (spec 4.5 is a cursor list
 * per product), so the filter is applied here, on the client, to the pages as they stream in
 * (./pages.ts): only the page being read is held, whatever the length of the list, and the walk
 * stops as soon as `limit` matches are found. Every row read is counted, so the caller can say
 * how much was scanned to find them.
 *
 * Dates compare as instants, read in any precision and zone the API writes; a timestamp still at
 * the zero value (`0001-01-01T00:00:00Z`, in any precision: never submitted, never approved)
 * matches no window on it.
 */
import type { LoanRequest } from '../contract/schemas.js';
import { type Stage, stageOf } from '../contract/states.js';
import { isSetTimestamp, parseTimestamp } from '../contract/vocabulary.js';
import type { ApiClient } from '../http/api-client.js';
import type { Direction } from '../input/values.js';
import { type LoanRequestPageOf, loanRequestPages } from './pages.js';

/** From `since` (inclusive) to `until` (exclusive), in milliseconds since the epoch; either may be open. */
export interface TimeWindow {
  since?: number | undefined;
  until?: number | undefined;
}

export interface LoanFilter {
  /** The stage of the state table (src/contract/states.ts), whatever marks it. */
  stage?: Stage | undefined;
  status?: string | undefined;
  lenderStatus?: string | undefined;
  userStatus?: string | undefined;
  userId?: number | undefined;
  created?: TimeWindow | undefined;
  submitted?: TimeWindow | undefined;
  approved?: TimeWindow | undefined;
  minAmount?: number | undefined;
  maxAmount?: number | undefined;
}

/** True when `filter` asks for anything at all (an empty filter is the plain list). */
export function isFiltering(filter: LoanFilter): boolean {
  return Object.values(filter).some((value) => value !== undefined);
}

/** Whether a loan request passes every part of the filter. States compare case-insensitively. */
export function matchesLoan(filter: LoanFilter, loan: LoanRequest): boolean {
  return (
    (filter.stage === undefined || stageOf(loan) === filter.stage) &&
    sameState(filter.status, loan.status) &&
    sameState(filter.lenderStatus, loan.lender_status) &&
    sameState(filter.userStatus, loan.user_status) &&
    (filter.userId === undefined || loan.user_id === filter.userId) &&
    (filter.minAmount === undefined || loan.amount >= filter.minAmount) &&
    (filter.maxAmount === undefined || loan.amount <= filter.maxAmount) &&
    within(filter.created, loan.created_at) &&
    within(filter.submitted, loan.submitted_at) &&
    within(filter.approved, loan.approved_at)
  );
}

function sameState(wanted: string | undefined, actual: unknown): boolean {
  return wanted === undefined || String(actual ?? '').toLowerCase() === wanted.toLowerCase();
}

function within(window: TimeWindow | undefined, stamp: unknown): boolean {
  if (window === undefined) return true;
  // The zero timestamp in any precision (the real service writes nanoseconds) is "never".
  if (!isSetTimestamp(stamp)) return false;
  const at = parseTimestamp(stamp)?.getTime();
  if (at === undefined) return false;
  return (window.since === undefined || at >= window.since) && (window.until === undefined || at < window.until);
}

export interface LoanSearch {
  direction: Direction;
  /** Start after this id (undefined: from the first in `direction`). */
  cursor?: number | undefined;
  /** Stop once this many have matched (undefined: read to the end). */
  limit?: number | undefined;
  /** Rows asked for per request. */
  pageSize: number;
}

/** How a search ended: rows read, rows matched, and the cursor to continue from when it stopped early. */
export interface SearchTally {
  scanned: number;
  matched: number;
  /** The id of the last row read when `limit` stopped the walk with rows still to read; else undefined. */
  resumeAfter: number | undefined;
}

/** Where the matches of each page go, as they are found (only pages with some). */
type OnMatches = (matches: LoanRequest[]) => Promise<void>;

/**
 * Walks the product's loan requests in `search.direction`, handing each page's matches to
 * `onMatches`, and fills `tally` as it goes. Stops at `search.limit` matches: the rest of that
 * page is not read, and no further page is asked for once the walk ends.
 */
export async function searchLoanRequests(
  api: ApiClient,
  productId: number,
  filter: LoanFilter,
  search: LoanSearch,
  tally: SearchTally,
  onMatches: OnMatches,
): Promise<void> {
  const query = { direction: search.direction, cursor: search.cursor, limit: search.pageSize };
  const pages = loanRequestPages(api, productId, query);
  const context = { pages, filter, limit: search.limit, tally, onMatches };
  while (await searchNextPage(context)) {}
}

/**
 * One page of a search; false once the search is over. A call of its own per page: the loop
 * waiting for the next page holds nothing of this one (see loanRequestPages).
 */
async function searchNextPage(search: {
  pages: AsyncIterator<LoanRequestPageOf, void>;
  filter: LoanFilter;
  limit: number | undefined;
  tally: SearchTally;
  onMatches: OnMatches;
}): Promise<boolean> {
  const { tally } = search;
  const next = await search.pages.next();
  if (next.done) return false;
  const matches: LoanRequest[] = [];
  for (const loan of next.value.loanRequests) {
    tally.scanned++;
    if (!matchesLoan(search.filter, loan)) continue;
    matches.push(loan);
    tally.matched++;
    if (tally.matched === search.limit) {
      tally.resumeAfter = loan.id;
      await search.onMatches(matches);
      return false;
    }
  }
  if (matches.length > 0) await search.onMatches(matches);
  return true;
}

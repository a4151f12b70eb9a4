/**
 * `loan list` with filter flags: the product's loan requests streamed through the filter
 * (src/domain/loan-filter.ts), client-side, matches printed as each page yields them. Memory stays
 * that of one page however long the list. stderr ends with how many rows were scanned, and, when
 * `--limit` stopped the search with rows left, the command that continues it.
 */
import type { Deps } from '../../deps.js';
import { type SearchTally, searchLoanRequests } from '../../domain/loan-filter.js';
import { userLookup } from '../../domain/user-lookup.js';
import type { Direction } from '../../input/values.js';
import { joinedListShape, openOutput } from '../../output/output.js';
import { borrowerJoin } from '../common/borrower-columns.js';
import {
  filterFlagsText,
  type LoanFilterFlags,
  type ParsedLoanFilter,
  resolveLoanFilter,
} from '../common/loan-filter-options.js';
import { notice } from './common.js';

/** Rows asked for per request while filtering: the list's own largest page (`--all`). */
const SCAN_PAGE_SIZE = 100;
const DEFAULT_MATCHES = 20;

export interface FilteredListRequest {
  productId: number;
  direction: Direction;
  cursor: number | undefined;
  /** `--limit`: matches to find; undefined → DEFAULT_MATCHES, or every match with `all`. */
  limit: number | undefined;
  all: boolean | undefined;
  parsedFilter: ParsedLoanFilter;
}

export async function runFilteredLoanList(
  request: FilteredListRequest,
  flags: LoanFilterFlags,
  deps: Deps,
): Promise<void> {
  const output = await openOutput(deps, joinedListShape('loanRequest'));
  const api = await deps.api();
  const lookup = await userLookup(deps);
  const filter = await resolveLoanFilter(request.parsedFilter, api, lookup);
  const join = await borrowerJoin(deps, output.fields, lookup);
  const limit = request.all && request.limit === undefined ? undefined : (request.limit ?? DEFAULT_MATCHES);
  const tally: SearchTally = { scanned: 0, matched: 0, resumeAfter: undefined };
  const stream = output.pages();
  const search = { direction: request.direction, cursor: request.cursor, limit, pageSize: SCAN_PAGE_SIZE };
  // --raw is refused with a filter (./list.ts): the stream is given rows only.
  try {
    await searchLoanRequests(api, request.productId, filter, search, tally, (matches) =>
      stream.page(join ? join.rows(matches) : matches),
    );
    await stream.end();
  } finally {
    // The rows written so far, the search failing or not: their missing borrowers are said.
    join?.end();
  }
  notice(deps, `${tally.matched} matched of ${tally.scanned} loan requests scanned (filtered by loanctl).`);
  if (tally.resumeAfter !== undefined) {
    const direction = request.direction === 'ASC' ? ' --direction ASC' : '';
    const more = request.limit === undefined ? '' : ` --limit ${request.limit}`;
    notice(deps, `next: --cursor ${tally.resumeAfter}${direction}${more} ${filterFlagsText(flags)}`);
  }
}

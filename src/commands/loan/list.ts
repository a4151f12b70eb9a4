/**
 * `loanctl loan list`: loan requests of a product, ordered by id, a page at a time (spec 4.5).
 *
 * Defaults: `--direction DESC` (newest first; the API itself requires a direction) and
 * `--limit 20`. After a page, loanctl asks for one more row after the cursor and, if there is one,
 * says `next: --cursor N` on stderr. `--all` walks every page (100 a request unless `--limit` is
 * given) and prints rows as each page arrives, until a page comes back empty.
 *
 * With a filter flag (`--status`, `--user`, `--created-since`, `--min-amount`, …; see
 * ../common/loan-filter-options.ts) the list is filtered here, client-side: the API cannot
 * filter. Pages of 100 stream through the filter; `--limit` then counts matches (default 20;
 * `--all`: every match) and the walk stops at the `--limit`th. stderr says how many rows were
 * scanned and, when it stopped early, the `--cursor` that continues the search.
 *
 * `--fields` may name the borrower's e-mail and phone (`borrower_email`, `borrower_phone`, or the
 * `@export` preset): ../common/borrower-columns.ts fills them from the local index of borrowers.
 */
import type { LoanRequest, LoanRequestPage } from '../../contract/schemas.js';
import type { Deps } from '../../deps.js';
import { isFiltering } from '../../domain/loan-filter.js';
import { isFollowableCursor, type LoanRequestPageOf, loanRequestPages } from '../../domain/pages.js';
import { UsageError } from '../../errors.js';
import { type Direction, parseDirection, parsePositiveInt, parseWholeNumber } from '../../input/values.js';
import { joinedListShape, openOutput } from '../../output/output.js';
import { borrowerJoin } from '../common/borrower-columns.js';
import { type LoanFilterFlags, parseLoanFilter } from '../common/loan-filter-options.js';
import { notice, type ProductOption, resolveProduct } from './common.js';

export interface LoanListOptions extends ProductOption, LoanFilterFlags {
  direction?: string;
  cursor?: string;
  limit?: string;
  all?: boolean;
}

const DEFAULT_LIMIT = 20;
const ALL_PAGE_SIZE = 100;

export async function runLoanList(options: LoanListOptions, deps: Deps): Promise<void> {
  const productId = await resolveProduct(options, deps);
  const direction: Direction =
    options.direction === undefined ? 'DESC' : parseDirection(options.direction, '--direction');
  const cursor = options.cursor === undefined ? undefined : parseWholeNumber(options.cursor, '--cursor');
  const given = options.limit === undefined ? undefined : parsePositiveInt(options.limit, '--limit');
  const parsedFilter = parseLoanFilter(options);
  if (isFiltering(parsedFilter.filter) || parsedFilter.user !== undefined) {
    if (deps.globals.raw) {
      throw new UsageError(
        '--raw prints whole pages as the API sent them, so it cannot be combined with a filter.',
        'Leave out --raw, or the filter flags.',
      );
    }
    const { runFilteredLoanList } = await import('./list-filtered.js');
    return runFilteredLoanList(
      { productId, direction, cursor, limit: given, all: options.all, parsedFilter },
      options,
      deps,
    );
  }
  const output = await openOutput(deps, joinedListShape('loanRequest'));
  const join = await borrowerJoin(deps, output.fields);
  const withBorrowers = (rows: readonly LoanRequest[]) => (join ? join.rows(rows) : rows);
  const api = await deps.api();
  const page = async (at: number | undefined, limit: number) => {
    const result = await api.call('listLoanRequests', { productId, query: { direction, cursor: at, limit } });
    return { result, page: result.data as LoanRequestPage };
  };

  if (options.all) {
    // Prefetch: as soon as a page arrives, the next one is requested, and this one is written while
    // it travels. Only the page being written and the one on its way are held (flat memory).
    const limit = given ?? ALL_PAGE_SIZE;
    const stream = output.pages();
    const pages = loanRequestPages(api, productId, { direction, cursor, limit }, { prefetch: true });
    const write = (rows: readonly LoanRequest[], envelope: unknown) => stream.page(withBorrowers(rows), envelope);
    try {
      for (let page = await writeNextPage(pages, write, deps); page; page = await writeNextPage(pages, write, deps)) {
        await page.written;
      }
      await stream.end();
    } finally {
      // The rows written so far, the walk failing or not: their missing borrowers are said.
      join?.end();
    }
    return;
  }

  const limit = given ?? DEFAULT_LIMIT;
  const { result, page: current } = await page(cursor, limit);
  try {
    await output.print(withBorrowers(current.loan_requests), result.rawBody);
  } finally {
    join?.end();
  }
  if (current.loan_requests.length === 0 || current.cursor === cursor) return;
  if (!isFollowableCursor(current.cursor)) return warnUnfollowable(deps);
  const { page: ahead } = await page(current.cursor, 1);
  if (ahead.loan_requests.length > 0) {
    const extra = `${direction === 'ASC' ? ' --direction ASC' : ''}${given ? ` --limit ${given}` : ''}`;
    notice(deps, `next: --cursor ${current.cursor}${extra}`);
  }
}

/**
 * Writes the walk's next page; undefined once there is none, else `written`, which settles once
 * stdout has taken it (see PageStream). A call of its own per page, returned before anything waits
 * on stdout or the next page: nothing that waits holds this page.
 */
async function writeNextPage(
  pages: AsyncIterator<LoanRequestPageOf, void>,
  write: (rows: readonly LoanRequest[], envelope: unknown) => Promise<void>,
  deps: Deps,
): Promise<{ written: Promise<void> } | undefined> {
  const next = await pages.next();
  if (next.done) return undefined;
  const { loanRequests, reply, followable } = next.value;
  const written = write(loanRequests, reply.envelope);
  return { written: followable ? written : written.then(() => warnUnfollowable(deps)) };
}

/** The list stops at a reply cursor that is not a whole number: it is never echoed or sent back. */
function warnUnfollowable(deps: Deps): void {
  notice(deps, "warning: the reply's cursor is not a whole number, so the next page cannot be asked for.");
}

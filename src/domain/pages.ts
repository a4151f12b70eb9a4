/**
 * Walking the API's two paged lists, each the one place its paging rule is written:
 *
 * - the user list (spec 4.3) is paged by `pages` (from 1) with a page size the spec does not give,
 *   so a walk stops at the first empty page — or at a page that repeats the previous one (a
 *   server that ignores `pages` would otherwise loop forever);
 * - the loan request list (spec 4.5) is paged by a cursor (the last id of a page), so a walk stops
 *   at the first empty page — or at a page that does not move the cursor (a server that ignores
 *   the cursor would otherwise loop forever; such a page is yielded only when it is the first) —
 *   or after a page whose cursor cannot be sent back (text, `1e999` read as Infinity): that page is
 *   yielded, marked `followable: false`, and the walk ends there.
 *
 * With `prefetch`, page N+1 is requested as soon as page N has arrived, so the next page is on its
 * way while the caller handles this one (for walks that read to the end: `--all`, bulk look-ups).
 * At most two pages are held at once. The user list's pages are numbered, so a walk that must read
 * many of them (`user find`) may ask for several ahead (`prefetch: 8`): pages N+1 … N+8 are on
 * their way at once, and at most that many more are held. Without it (a search that stops early),
 * no page is fetched that is not needed. Leaving the loop early (`break`) ends the walk; the pages
 * already asked for are read and dropped.
 *
 * A page carries its rows and its envelope, never the reply's text: the text is dropped as soon as
 * it is parsed, so a walk holds a page once (parsed), not twice (text and rows). Whatever a long walk
 * keeps while it allocates makes its peak grow with its length (docs/decisions/flat-walk-memory.md).
 */
import type { LoanRequest, LoanRequestPage, UserListItem } from '../contract/schemas.js';
import type { Envelope } from '../contract/vocabulary.js';
import type { ApiClient, ApiResult } from '../http/api-client.js';
import type { Direction } from '../input/values.js';

/** Told of each page a walk has read: how many rows it had and how many of them matched (a progress line). */
export type PageSeen = (rows: number, matched: number) => void;

export interface UserQuery {
  start?: string | undefined;
  end?: string | undefined;
}

/** What a walk keeps of a reply: its envelope (what `--raw` prints) and its `Date` header, not its text. */
interface PageReply {
  envelope: Envelope;
  dateHeader: string | undefined;
}

export interface UserPage {
  users: UserListItem[];
  /** Its number, from 1. */
  page: number;
  reply: PageReply;
}

/** The reply without its text, which nothing reads once it is parsed. */
function pageReply(result: ApiResult): PageReply {
  return { envelope: result.envelope, dateHeader: result.dateHeader };
}

export interface UserPagesOptions {
  /** The page to start from (default 1). */
  firstPage?: number;
  /** Pages to ask for ahead of the one being handled: true is 1. */
  prefetch?: boolean | number;
}

/** Every non-empty page of the user list, from `firstPage` on. */
export async function* userPages(
  api: ApiClient,
  query: UserQuery = {},
  options: UserPagesOptions = {},
): AsyncGenerator<UserPage, void, undefined> {
  const fetchPage = (page: number) => api.call('listUsers', { query: { ...query, pages: page } }).then(pageReply);
  const ahead = options.prefetch === true ? 1 : options.prefetch || 0;
  const asked = new Map<number, Promise<PageReply>>();
  let previousFirst: number | undefined;
  let firstSize: number | undefined;
  for (let page = options.firstPage ?? 1; ; page++) {
    const reply = await (asked.get(page) ?? fetchPage(page));
    asked.delete(page);
    const users = (reply.envelope.data ?? []) as UserListItem[];
    const first = users[0]?.id;
    if (users.length === 0 || first === previousFirst) return;
    previousFirst = first;
    // Ahead by as many pages as were read (1, 2, 4 … up to `ahead`), and none past a page shorter
    // than the first (the last): a short list costs no request beyond its end.
    const reach = Math.min(ahead, page - (options.firstPage ?? 1) + 1);
    const last = firstSize !== undefined && users.length < firstSize;
    firstSize ??= users.length;
    for (let next = page + 1; !last && next <= page + reach; next++) {
      if (!asked.has(next)) asked.set(next, prefetched(fetchPage(next)));
    }
    yield { users, page, reply };
  }
}

export interface LoanRequestQuery {
  direction: Direction;
  /** Start after this id (undefined: from the first). */
  cursor?: number | undefined;
  limit: number;
}

export interface LoanRequestPageOf {
  loanRequests: LoanRequest[];
  /** The cursor the API gave for the next page. */
  cursor: number;
  /** False: that cursor is not a whole number, so no next page can be asked for; the walk ends here. */
  followable: boolean;
  reply: PageReply;
}

/** Whether a reply's cursor can be sent back for the next page: a whole number of 0 or more. */
export function isFollowableCursor(cursor: unknown): cursor is number {
  return typeof cursor === 'number' && Number.isSafeInteger(cursor) && cursor >= 0;
}

/**
 * Every non-empty page of a product's loan requests, from `query.cursor` on. Each page is read by
 * a call of `next()` that has returned before the following page is awaited: nothing suspended
 * (a generator's frame) is left holding a page the caller is done with.
 */
export function loanRequestPages(
  api: ApiClient,
  productId: number,
  query: LoanRequestQuery,
  options: { prefetch?: boolean } = {},
): AsyncIterableIterator<LoanRequestPageOf, void, undefined> {
  const { direction, limit } = query;
  const fetchPage = (cursor: number | undefined) =>
    api.call('listLoanRequests', { productId, query: { direction, cursor, limit } }).then(pageReply);
  let cursor = query.cursor;
  let next: Promise<PageReply> | undefined;
  let first = true;
  let ended = false;
  const end = (): IteratorResult<LoanRequestPageOf, void> => {
    ended = true;
    next = undefined;
    return { done: true, value: undefined };
  };
  const walk: AsyncIterableIterator<LoanRequestPageOf, void, undefined> = {
    [Symbol.asyncIterator]: () => walk,
    async next() {
      if (ended) return end();
      const reply = await (next ?? fetchPage(cursor));
      next = undefined;
      const wasFirst = first;
      first = false;
      const page = reply.envelope.data as LoanRequestPage;
      if (page.loan_requests.length === 0) return end();
      const followable = isFollowableCursor(page.cursor);
      const value = { loanRequests: page.loan_requests, cursor: page.cursor, followable, reply };
      if (page.cursor === cursor || !followable) {
        ended = true;
        return wasFirst || !followable ? { done: false, value } : end();
      }
      cursor = page.cursor;
      if (options.prefetch) next = prefetched(fetchPage(cursor));
      return { done: false, value };
    },
    async return() {
      return end();
    },
  };
  return walk;
}

/** A request sent ahead: awaited on the next turn; this only keeps an early failure from being "unhandled". */
function prefetched<T>(request: Promise<T>): Promise<T> {
  request.catch(() => {});
  return request;
}

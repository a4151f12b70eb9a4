/**
 * Finding a user by e-mail in a few requests, newest first (issue 12). The API has no search: only
 * a user list paged by number (oldest first, by id) and filtered by a creation-date window
 * (`start`, `end`, whole UTC days). The borrower looked up is most often the newest (right after
 * `user create`), which a walk from page 1 reaches last. So:
 *
 * 1. windows of creation dates are probed backwards from today, each four times longer than the
 *    one after it (2 days, 8, 32 … then everything older), one request each (its page 1);
 * 2. in the first window that has users, the window's order decides: the spec does not give it.
 *    Newest first (the sandbox's order): its pages are read from page 1 on, and the newest
 *    borrower is on page 1. Oldest first: the last page is found by galloping (pages 2, 16, 256,
 *    4096 …) and then bisecting between the last page seen full and the first seen empty, and
 *    pages are read from that last page back to page 1;
 * 3. then the next older window — turn about with a walk from page 1 of the whole list, so an old
 *    borrower is found early too.
 *
 * Against the sandbox the newest of 1,000,000 borrowers created on one day costs 2 requests (user
 * exists, then page 1 of today's window); against a server whose windows are oldest first about 22
 * (bench/paging.mjs). The page size is not in the spec: a page shorter than page 1 is the last one.
 * A server that ignores `pages` (every page is page 1) is detected and left to the walk from page 1.
 */
import type { UserListItem } from '../contract/schemas.js';
import type { ApiClient } from '../http/client.js';
import { type UserQuery, userPages } from './pages.js';

/** Where a user was found: the window and page to ask for again to see it (the local index keeps this). */
interface UserLocator {
  start?: string;
  end?: string;
  page: number;
}

export interface LocatedUser {
  user: UserListItem;
  at: UserLocator;
}

const DAY_MS = 86_400_000;
/** Each older window is this many times longer than the one after it. */
const WINDOW_GROWTH = 4;
/** Windows with both ends before the last, open-start one: 2 days up to 2 × 4^7 days (about 90 years). */
const BOUNDED_WINDOWS = 8;
/** The pages galloped to after page 2: 16, 256, 4096 … */
const GALLOP_FACTOR = 16;

/**
 * The creation windows, newest first. The first starts yesterday and has no end, so a client whose
 * clock is a day behind the server's (or ahead of it, around midnight UTC) still sees today's users.
 */
function creationWindows(today: Date): UserQuery[] {
  let start = dayOffset(today, -1);
  const windows: UserQuery[] = [{ start: isoDay(start) }];
  let span = 2 * WINDOW_GROWTH;
  for (let i = 0; i < BOUNDED_WINDOWS - 1; i++) {
    const end = dayOffset(start, -1);
    start = dayOffset(end, -(span - 1));
    windows.push({ start: isoDay(start), end: isoDay(end) });
    span *= WINDOW_GROWTH;
  }
  windows.push({ end: isoDay(dayOffset(start, -1)) });
  return windows;
}

/**
 * The user with this e-mail (lower case), or undefined when the list has none. Pages are read newest
 * first and, turn about, oldest first (from page 1 of the whole list), until one has the user or the
 * two meet: the newest borrower costs the search for the last page, the oldest one request more,
 * and none costs more than reading the whole list once (plus that search).
 */
export async function searchUserByEmail(api: ApiClient, email: string, today: Date): Promise<LocatedUser | undefined> {
  const match = (users: UserListItem[]) => users.find((candidate) => candidate.email.toLowerCase() === email);
  const newest = newestFirst(api, today);
  const oldest = userPages(api);
  let lowestNewId = Number.POSITIVE_INFINITY;
  let highestOldId = Number.NEGATIVE_INFINITY;
  let newestDone = false;
  for (;;) {
    const next: IteratorResult<NewestPage, void> = newestDone ? { done: true, value: undefined } : await newest.next();
    newestDone = next.done === true;
    if (!next.done) {
      const user = match(next.value.users);
      if (user) return { user, at: next.value.at };
      lowestNewId = Math.min(lowestNewId, ...next.value.users.map((user) => user.id));
      if (lowestNewId <= highestOldId) return undefined;
    }
    const old = await oldest.next();
    if (old.done) return undefined;
    const user = match(old.value.users);
    if (user) return { user, at: { page: old.value.page } };
    highestOldId = Math.max(highestOldId, old.value.users.at(-1)?.id ?? highestOldId);
    if (lowestNewId <= highestOldId) return undefined;
  }
}

interface NewestPage {
  users: UserListItem[];
  at: UserLocator;
}

/** The user list's pages, newest first, with where each one is; ends early on a server that ignores `pages`. */
async function* newestFirst(api: ApiClient, today: Date): AsyncGenerator<NewestPage, void, undefined> {
  for (const window of creationWindows(today)) {
    const searcher = new WindowSearch(api, window);
    try {
      const first = await searcher.page(1);
      if (first.length === 0) continue;
      if (isNewestFirst(first)) {
        yield { users: first, at: { ...window, page: 1 } };
        for (let page = 2, users = first; users.length === first.length; page++) {
          users = await searcher.page(page);
          if (users.length === 0) break;
          yield { users, at: { ...window, page } };
        }
        continue;
      }
      const last = await searcher.lastPage(first);
      for (let page = last.page; page >= 1; page--) {
        const users = page === last.page ? last.users : page === 1 ? first : await searcher.page(page);
        yield { users, at: { ...window, page } };
      }
    } catch (error) {
      if (error instanceof PagesIgnored) return; // the walk from page 1 reads the list alone
      throw error;
    }
  }
}

/** Whether a page lists its users newest first (highest id first), as the sandbox lists a window. */
function isNewestFirst(users: UserListItem[]): boolean {
  return users.length > 1 && (users[0]?.id ?? 0) > (users.at(-1)?.id ?? 0);
}

/** Page 1 of a window was repeated as a later page: the server ignores `pages`. */
class PagesIgnored extends Error {}

class WindowSearch {
  private firstId: number | undefined;

  constructor(
    private readonly api: ApiClient,
    private readonly window: UserQuery,
  ) {}

  async page(page: number): Promise<UserListItem[]> {
    const result = await this.api.call('listUsers', { query: { ...this.window, pages: page } });
    const users = (result.data ?? []) as UserListItem[];
    if (page === 1) this.firstId = users[0]?.id;
    else if (users.length > 0 && users[0]?.id === this.firstId) throw new PagesIgnored();
    return users;
  }

  /** The window's last non-empty page and its users: gallop, then bisect. */
  async lastPage(first: UserListItem[]): Promise<{ page: number; users: UserListItem[] }> {
    const pageSize = first.length;
    let known = { page: 1, users: first };
    let emptyFrom: number | undefined;
    for (let probe = 2; emptyFrom === undefined; probe = probe === 2 ? GALLOP_FACTOR : probe * GALLOP_FACTOR) {
      const users = await this.page(probe);
      if (users.length === 0) emptyFrom = probe;
      else {
        known = { page: probe, users };
        if (users.length < pageSize) return known;
      }
      if (!Number.isSafeInteger(probe * GALLOP_FACTOR)) break;
    }
    let empty = emptyFrom ?? Number.MAX_SAFE_INTEGER;
    while (empty - known.page > 1) {
      const middle = Math.floor((known.page + empty) / 2);
      const users = await this.page(middle);
      if (users.length === 0) empty = middle;
      else {
        known = { page: middle, users };
        if (users.length < pageSize) return known;
      }
    }
    return known;
  }
}

function dayOffset(day: Date, days: number): Date {
  return new Date(day.getTime() + days * DAY_MS);
}

function isoDay(day: Date): string {
  return day.toISOString().slice(0, 10);
}

/**
 * Finding users by what the API cannot search on: an id, a reference, a phone, a name.
 * The API has no user read and no search (spec 4.3), so these run client-side over streamed pages:
 * one page held at a time (two with the one fetched ahead), however long the list, and each says
 * how many users it looked at, for the operator to see what the answer cost.
 */

import type { UserListItem } from '../contract/schemas.js';
import { phoneKey } from '../contract/vocabulary.js';
import type { ApiClient } from '../http/api-client.js';
import { type PageSeen, userPages } from './pages.js';

/**
 * Pages asked for at once by a walk over the whole user list: the pages are numbered, so they need
 * not wait for each other; 8 is the client's connection pool (src/http/client.ts).
 */
const SCAN_AHEAD = 8;

export interface Scan {
  /** Users looked at. */
  scanned: number;
}

/** Whether a user is one looked for. */
export type UserMatcher = (user: UserListItem) => boolean;

/**
 * The user with this id. The list is ordered by id, so the page that would hold it is found by
 * galloping (pages 1, 2, 16, 256 …) to a page that ends at or after it, then bisecting: about 20
 * requests at 100,000 users, however old the user.
 */
export async function findUserById(api: ApiClient, id: number): Promise<UserListItem | undefined> {
  const look = async (page: number) => {
    const result = await api.call('listUsers', { query: { pages: page } });
    const users = (result.data ?? []) as UserListItem[];
    const user = users.find((candidate) => candidate.id === id);
    const after = users.length === 0 || (users.at(-1)?.id ?? 0) >= id;
    return { user, after };
  };
  let before = 0; // every page up to here ends before the id
  let after: number | undefined; // this page ends at or after it (or is empty)
  for (let page = 1; after === undefined; page = page === 1 ? 2 : page * 16) {
    const { user, after: isAfter } = await look(page);
    if (user) return user;
    if (isAfter) after = page;
    else before = page;
    if (!Number.isSafeInteger(page * 16)) return undefined; // a server whose pages never end
  }
  while (after - before > 1) {
    const middle = Math.floor((before + after) / 2);
    const { user, after: isAfter } = await look(middle);
    if (user) return user;
    if (isAfter) after = middle;
    else before = middle;
  }
  return undefined;
}

/**
 * Every user that `matches`, handed to `found` page by page as the walk goes (several pages asked
 * for at once, handled in order), until the list ends or `enough` says so; `pageSeen` is told of
 * each page (the progress line). Returns how many users were looked at.
 */
export async function scanUsers(
  api: ApiClient,
  matches: UserMatcher,
  found: (users: UserListItem[]) => Promise<void> | void,
  enough: () => boolean = () => false,
  pageSeen: PageSeen = () => {},
): Promise<Scan> {
  let scanned = 0;
  for await (const { users } of userPages(api, {}, { prefetch: SCAN_AHEAD })) {
    scanned += users.length;
    const hits = users.filter(matches);
    pageSeen(users.length, hits.length);
    if (hits.length > 0) await found(hits);
    if (enough()) break;
  }
  return { scanned };
}

/** Matches a user whose phone is this number, in any of the forms the CLI accepts (0…, 234…, +234…). */
export function phoneMatcher(phone: string): UserMatcher {
  const wanted = phoneKey(phone);
  return (user) => typeof user.phone === 'string' && phoneKey(user.phone) === wanted;
}

/** Matches a user whose "first last" name contains every word given, in any case. */
export function nameMatcher(name: string): (user: UserListItem) => boolean {
  const words = name.toLowerCase().split(/\s+/).filter(Boolean);
  return (user) => {
    const full = `${user.firstname} ${user.lastname}`.toLowerCase();
    return words.every((word) => full.includes(word));
  };
}

/**
 * Finding users by what the API cannot search on (issue 12): an id, a reference, a phone, a name.
 * The API has no user read and no search (spec 4.3), so these run client-side over streamed pages:
 * one page held at a time (two with the one fetched ahead), however long the list, and each says
 * how many users it looked at, for the operator to see what the answer cost.
 */
import type { UserListItem } from '../contract/schemas.js';
import { isEnvelope } from '../contract/vocabulary.js';
import type { ApiClient } from '../http/client.js';
import { normalisePhone, PHONE_SEPARATOR } from '../input/values.js';
import { type PageSeen, userPages } from './pages.js';
import { countPlainUserPage, type PageCount } from './plain-user-page.js';

/**
 * Pages asked for at once by a walk over the whole user list: the pages are numbered, so they need
 * not wait for each other; 8 is the client's connection pool (src/http/client.ts).
 */
const SCAN_AHEAD = 8;

export interface Scan {
  /** Users looked at. */
  scanned: number;
}

/**
 * Whether a user is one looked for. `mayBeIn`, where a matcher has it, tells from a page's text
 * (one with no backslash, so every string in it is written as it reads) whether any user of the
 * page could match: false is certain, true only possible.
 */
export interface UserMatcher {
  (user: UserListItem): boolean;
  mayBeIn?: (text: string) => boolean;
}

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
  // Under --debug every page is read in full: the client then checks each reply against the contract.
  const skim = api.settings.debug ? undefined : skimUnmatched(matches);
  for await (const { users, size } of userPages(api, {}, { prefetch: SCAN_AHEAD, skim })) {
    scanned += size;
    const hits = users.filter(matches); // none on a page passed over
    pageSeen(size, hits.length);
    if (hits.length > 0) await found(hits);
    if (enough()) break;
  }
  return { scanned };
}

/**
 * How `user find` passes over a page of the user list none of whose users matches: its size and
 * first id, for the walk to count and go on. Anything else is left to the client's full reading (the
 * envelope's checks, the key's redaction), which then decides what matches: a text with any
 * backslash (an escape could spell a character, a digit of a phone, differently), one whose text may
 * hold a match (`mayBeIn`), one that is not a success envelope holding a list of flat objects with
 * whole-number ids, and any page with a match. A matcher that can
 * tell from the text has the page recognised from it (./plain-user-page.ts, ~15 µs for 50 users);
 * else, or for a page not that plain, JSON.parse reads it and the matcher is asked (~0.1 ms). The
 * full reading of a 50-user page costs the client ~0.6 ms (bench/README.md).
 */
export function skimUnmatched(matches: UserMatcher): (text: string) => PageCount | undefined {
  return (text) => {
    if (text.includes('\\') || matches.mayBeIn?.(text) === true) return undefined;
    return (matches.mayBeIn && countPlainUserPage(text)) || countParsedUnmatched(text, matches);
  };
}

/**
 * The size and first id of a page read with JSON.parse, when it is an envelope of success (as the
 * full reading checks it) holding only plain values besides a list of plain users, none matching.
 * Plain: flat, each value a string, a boolean, null or a whole number JSON keeps exactly.
 */
function countParsedUnmatched(text: string, matches: UserMatcher): PageCount | undefined {
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isEnvelope(envelope) || envelope.status !== 'success') return undefined;
  const { data: users, ...rest } = envelope;
  if (!Array.isArray(users) || !isPlain(rest) || !users.every(isPlain)) return undefined;
  if (!users.every((user: UserListItem) => Number.isSafeInteger(user.id)) || users.some(matches)) return undefined;
  return { size: users.length, firstId: users[0]?.id };
}

function isPlain(record: unknown): boolean {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return false;
  return Object.values(record).every(
    (value) => value === null || ['string', 'boolean'].includes(typeof value) || Number.isSafeInteger(value),
  );
}

/**
 * Matches a user whose phone is this number, in any of the forms the CLI accepts (0…, 234…, +234…).
 * A valid number's ten national digits, with only what a phone may have between its digits, are in
 * the text of every page that holds a match: a page without them is passed over unparsed.
 */
export function phoneMatcher(phone: string): UserMatcher {
  const wanted = normalisePhone(phone);
  if (wanted === undefined) {
    const digits = phone.replace(/\D/g, '');
    return (user) =>
      typeof user.phone === 'string' &&
      normalisePhone(user.phone) === undefined &&
      user.phone.replace(/\D/g, '') === digits;
  }
  const national = new RegExp(wanted.slice(-10).split('').join(`${PHONE_SEPARATOR}*`));
  const matches: UserMatcher = (user) => typeof user.phone === 'string' && normalisePhone(user.phone) === wanted;
  matches.mayBeIn = (text) => national.test(text);
  return matches;
}

/** Matches a user whose "first last" name contains every word given, in any case. */
export function nameMatcher(name: string): (user: UserListItem) => boolean {
  const words = name.toLowerCase().split(/\s+/).filter(Boolean);
  return (user) => {
    const full = `${user.firstname} ${user.lastname}`.toLowerCase();
    return words.every((word) => full.includes(word));
  };
}

/** Whether the user list's items carry a `reference` (the spec's do not, 2.2; a server may add it). */
export function listCarriesReference(users: readonly UserListItem[]): boolean {
  return users.some((user) => 'reference' in user);
}

/** Matches a user by its reference, on a server whose list items carry one. */
export function referenceMatcher(reference: string): (user: UserListItem) => boolean {
  const wanted = reference.trim().toLowerCase();
  return (user) => String((user as { reference?: unknown }).reference ?? '').toLowerCase() === wanted;
}

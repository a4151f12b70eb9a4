/**
 * Finding a user by e-mail. The create reply carries no id (spec 2.2) and the API has no search, so
 * an e-mail is found in the user list. The common cases cost one request: a borrower the local index
 * knows (./borrower-index.ts) is confirmed by the server; one just created is on the first page of
 * those created since yesterday. Else `user exists` is asked (an unknown e-mail stops there, after
 * two requests), and only then is the list walked. `loan create --user`, `loan new`, bulk and
 * `user show` go through here.
 */
import type { IndexPaths } from '../config/user-index.js';
import type { UserListItem } from '../contract/schemas.js';
import { NoAccessError } from '../errors.js';
import type { ApiClient } from '../http/api-client.js';
import type { UserRef } from '../input/values.js';
import type { BorrowerIndex, Wanted } from './borrower-index.js';
import { byEmail } from './borrower-wanted.js';
import { userPages } from './pages.js';

export interface FindUserOptions {
  /** The local index of borrowers (none: the list is walked from page 1 each time). */
  index?: BorrowerIndex | undefined;
  /** Where it and the references loanctl saw are kept. */
  paths?: IndexPaths | undefined;
}

/** The user with this e-mail (case-insensitive) in the caller's organisation, or exit 4. */
export async function findUserByEmail(
  api: ApiClient,
  email: string,
  options: FindUserOptions = {},
): Promise<UserListItem> {
  const wanted = byEmail(email);
  const { index } = options;
  // Known to the index: confirmed by the server (one request), else the index is rebuilt.
  let user = index?.knows(wanted) ? (await index.find(wanted, false)).users[0] : undefined;
  // Most often the borrower looked up was just created: one page of the newest.
  user ??= await createdSinceYesterday(api, wanted.user);
  if (!user) {
    const exists = await api.call('userExists', { query: { email: email.trim().toLowerCase(), action: 'exists' } });
    if (exists.data === true) user = index ? await walkIndex(index, wanted) : await walkFor(api, wanted.user);
  }
  if (!user) {
    throw new NoAccessError(
      `No user with e-mail ${email} in your organisation.`,
      'Check the address with `loanctl user list`, or create the user: loanctl user create --email … (see --help).',
    );
  }
  return user;
}

/**
 * The user `matches` among the first page of those created since yesterday (by this machine's
 * clock; a server a day apart only costs this one request): the sandbox lists a date window newest
 * first, so a borrower just created is there. A miss costs this one request before `user exists`.
 */
async function createdSinceYesterday(
  api: ApiClient,
  matches: (user: UserListItem) => boolean,
): Promise<UserListItem | undefined> {
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const page = await api.call('listUsers', { query: { start: yesterday, pages: 1 } });
  return ((page.data ?? []) as UserListItem[]).find(matches);
}

/**
 * A borrower the index did not know, though the server has it: created since the index was brought
 * up to date (the walk from its mark finds it), else the index is not believed and is rebuilt.
 */
async function walkIndex(index: BorrowerIndex, wanted: Wanted): Promise<UserListItem | undefined> {
  return (await index.find(wanted, true)).users[0] ?? (await index.rebuildOnce(wanted)).users[0];
}

/** Without an index (--dry-run): the first user of the list that `matches`, walking from page 1. */
async function walkFor(api: ApiClient, matches: (user: UserListItem) => boolean): Promise<UserListItem | undefined> {
  for await (const { users } of userPages(api, {}, { prefetch: 8 })) {
    const user = users.find(matches);
    if (user) return user;
  }
  return undefined;
}

/** The id a user reference (`--user 12` or `--user ada@example.com`) stands for; an id is taken as given. */
export async function userIdOf(api: ApiClient, ref: UserRef, options: FindUserOptions = {}): Promise<number> {
  return ref.kind === 'id' ? ref.id : (await findUserByEmail(api, ref.email, options)).id;
}

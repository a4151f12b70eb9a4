/**
 * Finding a user by e-mail. The create reply carries no id (spec 2.2) and the API has no search, so
 * an e-mail is found in the user list: through the local index (./borrower-index.ts: one request
 * to confirm a borrower it knows), after `user exists` (one request: an unknown e-mail stops there).
 * `loan create --user`, `loan new`, bulk and `user show` go through here.
 */
import type { IndexPaths } from '../config/user-index.js';
import type { UserListItem } from '../contract/schemas.js';
import { NoAccessError } from '../errors.js';
import type { ApiClient } from '../http/api-client.js';
import type { UserRef } from '../input/values.js';
import { type BorrowerIndex, byEmail } from './borrower-index.js';
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
  if (!user) {
    const exists = await api.call('userExists', { query: { email: email.trim().toLowerCase(), action: 'exists' } });
    if (exists.data === true && index) {
      // A borrower created since the index was brought up to date; else the index is not believed.
      user = (await index.find(wanted, true)).users[0] ?? (await index.rebuildOnce(wanted)).users[0];
    } else if (exists.data === true) {
      user = await walkFor(api, wanted.user);
    }
  }
  if (!user) {
    throw new NoAccessError(
      `No user with e-mail ${email} in your organisation.`,
      'Check the address with `loanctl user list`, or create the user: loanctl user create --email … (see --help).',
    );
  }
  return user;
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

/**
 * Finding a user. The create reply carries no id (spec 2.2) and the API has no search, so an
 * e-mail is found in the user list: through the local index when it was found before (one request
 * to check it), else by `user exists` (one request: an unknown e-mail stops there) and a search
 * newest first (user-search.ts). `loan create --user`, `loan new`, bulk and `user create`'s hint
 * go through here.
 */
import type { IndexedUser, UserIndex } from '../config/user-index.js';
import type { UserListItem } from '../contract/schemas.js';
import { NoAccessError } from '../errors.js';
import type { ApiClient } from '../http/api-client.js';
import type { UserRef } from '../input/values.js';
import { searchUserByEmail } from './user-search.js';

export interface FindUserOptions {
  /** The local index of e-mails found before (none: always search). */
  index?: UserIndex | undefined;
  /** Today, where the search's creation windows start (default: the real clock). */
  today?: Date;
}

/** The user with this e-mail (case-insensitive) in the caller's organisation, or exit 4. */
export async function findUserByEmail(
  api: ApiClient,
  email: string,
  options: FindUserOptions = {},
): Promise<UserListItem> {
  const wanted = email.trim().toLowerCase();
  const { index } = options;
  const indexed = index?.get(wanted);
  if (indexed) {
    const confirmed = await confirmIndexed(api, wanted, indexed);
    if (confirmed) return confirmed;
    index?.drop(wanted);
  }
  const exists = await api.call('userExists', { query: { email: wanted, action: 'exists' } });
  const found = exists.data === true ? await searchUserByEmail(api, wanted, options.today ?? new Date()) : undefined;
  if (!found) {
    throw new NoAccessError(
      `No user with e-mail ${email} in your organisation.`,
      'Check the address with `loanctl user list`, or create the user: loanctl user create --email … (see --help).',
    );
  }
  index?.put(wanted, { id: found.user.id, ...found.at });
  return found.user;
}

/**
 * The indexed user, if the user list still shows that id with that e-mail where the index says.
 * Never trusted unseen: a sandbox that was reset gives the same e-mail a new id.
 */
async function confirmIndexed(api: ApiClient, email: string, indexed: IndexedUser): Promise<UserListItem | undefined> {
  const { start, end, page } = indexed;
  const result = await api.call('listUsers', { query: { start, end, pages: page } });
  const users = (result.data ?? []) as UserListItem[];
  return users.find((user) => user.id === indexed.id && user.email.toLowerCase() === email);
}

/** The id a user reference (`--user 12` or `--user ada@example.com`) stands for; an id is taken as given. */
export async function userIdOf(api: ApiClient, ref: UserRef, options: FindUserOptions = {}): Promise<number> {
  return ref.kind === 'id' ? ref.id : (await findUserByEmail(api, ref.email, options)).id;
}

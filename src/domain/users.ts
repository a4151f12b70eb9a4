/**
 * Finding a user. The create reply carries no id (spec 2.2) and the API has no search, so an
 * e-mail is found by walking the user list from page 1 (pages.ts: the one place a better search
 * strategy would go). `loan create --user`, `loan new`, bulk and `user create`'s hint go through here.
 */
import type { UserListItem } from '../contract/schemas.js';
import { NoAccessError } from '../errors.js';
import type { ApiClient } from '../http/api-client.js';
import type { UserRef } from '../input/values.js';
import { userPages } from './pages.js';

/** The user with this e-mail (case-insensitive) in the caller's organisation, or exit 4. */
export async function findUserByEmail(api: ApiClient, email: string): Promise<UserListItem> {
  const wanted = email.trim().toLowerCase();
  for await (const { users } of userPages(api)) {
    const found = users.find((user) => user.email.toLowerCase() === wanted);
    if (found) return found;
  }
  throw new NoAccessError(
    `No user with e-mail ${email} in your organisation.`,
    'Check the address with `loanctl user list`, or create the user: loanctl user create --email … (see --help).',
  );
}

/** The id a user reference (`--user 12` or `--user ada@example.com`) stands for; an id is taken as given. */
export async function userIdOf(api: ApiClient, ref: UserRef): Promise<number> {
  return ref.kind === 'id' ? ref.id : (await findUserByEmail(api, ref.email)).id;
}

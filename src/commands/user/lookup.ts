/**
 * Walking the user list (spec 4.3), and finding a user's id by e-mail: the create reply carries no
 * id (spec 2.2), so `loan create --user EMAIL` and `user create`'s hint go through here.
 *
 * The list is paged by `pages` (from 1) with a page size the spec does not give, so a walk stops
 * at the first empty page — or at a page that repeats the previous one (a server that ignores
 * `pages` would otherwise loop forever).
 */
import type { UserListItem } from '../../contract/schemas.js';
import { NoAccessError } from '../../errors.js';
import type { ApiClient, ApiResult } from '../../http/client.js';

export interface UserQuery {
  start?: string | undefined;
  end?: string | undefined;
}

/**
 * Calls `onPage` with each non-empty page, from `firstPage` on, until the list ends or `onPage`
 * returns true (found what it wanted). Returns the number of the last page fetched.
 *
 * With `prefetch`, page N+1 is requested as soon as page N has arrived, so the next page is on its
 * way while `onPage` writes this one (for walks that read to the end: `user list --all`, bulk
 * look-ups). At most two pages are held at once. Without it (a search that stops early), no page
 * is fetched that is not needed.
 */
export async function walkUsers(
  api: ApiClient,
  query: UserQuery,
  onPage: (
    users: UserListItem[],
    page: number,
    result: ApiResult,
  ) => boolean | undefined | Promise<boolean | undefined>,
  firstPage = 1,
  options: { prefetch?: boolean } = {},
): Promise<number> {
  const fetchPage = (page: number) => api.call('listUsers', { query: { ...query, pages: page } });
  let previousFirst: number | undefined;
  let ahead: Promise<ApiResult> | undefined;
  for (let page = firstPage; ; page++) {
    const result = await (ahead ?? fetchPage(page));
    ahead = undefined;
    const users = (result.data ?? []) as UserListItem[];
    if (users.length === 0 || users[0]?.id === previousFirst) return page;
    previousFirst = users[0]?.id;
    if (options.prefetch) {
      ahead = fetchPage(page + 1);
      // Handled when awaited on the next turn; this only keeps an early failure from being "unhandled".
      ahead.catch(() => {});
    }
    if (await onPage(users, page, result)) return page;
  }
}

/** The user with this e-mail (case-insensitive) in the caller's organisation, or exit 4. */
export async function findUserByEmail(api: ApiClient, email: string): Promise<UserListItem> {
  const wanted = email.trim().toLowerCase();
  let found: UserListItem | undefined;
  await walkUsers(api, {}, (users) => {
    found = users.find((user) => user.email.toLowerCase() === wanted);
    return found !== undefined;
  });
  if (!found) {
    throw new NoAccessError(
      `No user with e-mail ${email} in your organisation.`,
      'Check the address with `loanctl user list`, or create the user: loanctl user create --email … (see --help).',
    );
  }
  return found;
}

/**
 * `loanctl user list`: the borrowers of the caller's organisation, a page at a time (spec 4.3).
 *
 * The spec gives no page size, so whether a next page exists is learnt by asking for it: after
 * printing page N, loanctl fetches page N+1 and, if it has users, says `next: --page N+1` on
 * stderr. `--all` walks every page and prints rows as each page arrives.
 */
import type { UserListItem } from '../../contract/schemas.js';
import type { Deps } from '../../deps.js';
import { userPages } from '../../domain/pages.js';
import { UsageError } from '../../errors.js';
import { parseDate, parsePositiveInt } from '../../input/values.js';
import { notice } from '../../output/notice.js';
import { openOutput } from '../../output/output.js';

export interface UserListOptions {
  start?: string;
  end?: string;
  page?: string;
  all?: boolean;
}

export async function runUserList(options: UserListOptions, deps: Deps): Promise<void> {
  const start = options.start === undefined ? undefined : parseDate(options.start, '--start');
  const end = options.end === undefined ? undefined : parseDate(options.end, '--end');
  if (start && end && end < start) throw new UsageError(`--end (${end}) is before --start (${start}).`);
  const page = options.page === undefined ? 1 : parsePositiveInt(options.page, '--page');
  if (options.all && options.page !== undefined) throw new UsageError('--all walks every page; leave out --page.');
  const output = await openOutput(deps, 'listUsers');
  const api = await deps.api();
  const query = { start, end };

  if (options.all) {
    const stream = output.pages();
    // Prefetch: the next page is on its way while this one is written (see userPages).
    for await (const { users, reply } of userPages(api, query, { prefetch: true }))
      await stream.page(users, reply.envelope);
    await stream.end();
    return;
  }

  const result = await api.call('listUsers', { query: { ...query, pages: page } });
  const users = (result.data ?? []) as UserListItem[];
  await output.print(users, result.rawBody);
  if (users.length > 0) {
    const next = await api.call('listUsers', { query: { ...query, pages: page + 1 } });
    const more = (next.data ?? []) as UserListItem[];
    if (more.length > 0 && more[0]?.id !== users[0]?.id) notice(deps, `next: ${nextPageFlags(query, page + 1)}`);
  }
}

/** The flags of the next page, every filter given kept: `--start 2026-01-01 --page 3`. */
function nextPageFlags(query: { start?: string | undefined; end?: string | undefined }, page: number): string {
  const window = [query.start && `--start ${query.start}`, query.end && `--end ${query.end}`].filter(Boolean);
  return [...window, `--page ${page}`].join(' ');
}

/**
 * `loanctl user find --phone P | --name N`: the borrowers with that phone, or whose name has those
 * words. The API has no search, so this is client-side over the streamed user list: eight pages
 * are asked for at once (they are numbered), rows print as each page arrives, memory stays flat
 * however long the list, a terminal shows the pages read and rows matched as the walk goes, and
 * stderr ends with how many users were scanned.
 */
import type { Deps } from '../../deps.js';
import { nameMatcher, phoneMatcher, scanUsers } from '../../domain/user-find.js';
import { UsageError } from '../../errors.js';
import { parsePhone, parsePositiveInt } from '../../input/values.js';
import { notice } from '../../output/notice.js';
import { openOutput } from '../../output/output.js';
import { startWalkProgress } from '../../output/walk-progress.js';

export interface UserFindOptions {
  phone?: string;
  name?: string;
  limit?: string;
}

export async function runUserFind(options: UserFindOptions, deps: Deps): Promise<void> {
  if ((options.phone === undefined) === (options.name === undefined)) {
    throw new UsageError('Give one of --phone or --name.', 'e.g. loanctl user find --phone 08012345678');
  }
  if (deps.globals.raw) {
    throw new UsageError('--raw prints whole pages as received; user find prints only the users that match.');
  }
  const limit = options.limit === undefined ? undefined : parsePositiveInt(options.limit, '--limit');
  // The phone is read as `user create` reads it: a form it refuses would silently match no one.
  const matches =
    options.phone !== undefined ? phoneMatcher(parsePhone(options.phone, '--phone')) : nameMatcher(options.name ?? '');
  const stream = (await openOutput(deps, 'listUsers')).pages();
  const api = await deps.api();
  let matched = 0;
  const progress = startWalkProgress(deps, 'users');
  let scanned = 0;
  try {
    ({ scanned } = await scanUsers(
      api,
      matches,
      async (hits) => {
        const rows = limit === undefined ? hits : hits.slice(0, limit - matched);
        matched += rows.length;
        await stream.page(rows, { rawBody: '' });
      },
      () => limit !== undefined && matched >= limit,
      progress.page,
    ));
  } finally {
    progress.stop();
  }
  await stream.end();
  notice(deps, `Scanned ${scanned} user${scanned === 1 ? '' : 's'}; ${matched} matched.`);
}

/**
 * `loanctl user find --phone P | --name N`: the borrowers with that phone, or whose name has those
 * words. The API has no search: the local index of borrowers (src/domain/borrower-index.ts) is
 * brought up to date (the first time by walking the whole list, eight pages at once; then only the
 * borrowers created since), and each match it names is confirmed by the server before it prints.
 * stderr ends with how many users were looked at. Under --dry-run (no index) the list is walked.
 */
import type { Deps } from '../../deps.js';
import { byPhone, byTest } from '../../domain/borrower-wanted.js';
import { nameMatcher, phoneMatcher, scanUsers } from '../../domain/user-find.js';
import { rememberListed, userLookup } from '../../domain/user-lookup.js';
import { UsageError } from '../../errors.js';
import { parsePhoneLookedFor, parsePositiveInt } from '../../input/values.js';
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
  // A phone in no form a phone is read in is refused: it would silently match no one.
  const phone = options.phone === undefined ? undefined : parsePhoneLookedFor(options.phone, '--phone');
  const matches = phone !== undefined ? phoneMatcher(phone) : nameMatcher(options.name ?? '');
  const stream = (await openOutput(deps, 'listUsers')).pages();
  const api = await deps.api();
  const lookup = await userLookup(deps);
  const { index } = lookup;
  if (index) {
    const wanted = phone !== undefined ? byPhone(phone, matches) : byTest(matches);
    const progress = startWalkProgress(deps, 'users');
    const { users, walked, indexed } = await index.find(wanted, true, progress.page).finally(() => progress.stop());
    const rows = limit === undefined ? users : users.slice(0, limit);
    rememberListed(lookup, rows);
    if (rows.length > 0) await stream.page(rows);
    await stream.end();
    notice(
      deps,
      `Scanned ${walked} new user${walked === 1 ? '' : 's'} (${indexed} in the index); ${rows.length} matched.`,
    );
    return;
  }
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
        await stream.page(rows);
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

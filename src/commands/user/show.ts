/**
 * `loanctl user show ID|EMAIL|REFERENCE`: one borrower. The API has no user read (spec 4.3), so
 * this looks in the user list, client-side: an id by bisecting the pages (they are ordered by id),
 * an e-mail as `loan create --user` does (the local index, else newest first). A reference only
 * where the list's items carry one (the spec's do not, 2.2): page 1 tells, and without one the
 * answer comes at once (exit 4, saying what to look by instead) rather than after reading every
 * page for a field that is never there. Where they do, the pages are walked (the number of users
 * looked at goes to stderr).
 */
import type { UserListItem } from '../../contract/schemas.js';
import type { Deps } from '../../deps.js';
import { findUserById, listCarriesReference, referenceMatcher, scanUsers } from '../../domain/user-find.js';
import { userLookup } from '../../domain/user-lookup.js';
import { findUserByEmail } from '../../domain/users.js';
import { NoAccessError } from '../../errors.js';
import type { ApiClient } from '../../http/client.js';
import { parseEmail, parseId } from '../../input/values.js';
import { notice } from '../../output/notice.js';
import { openOutput } from '../../output/output.js';
import { startWalkProgress } from '../../output/walk-progress.js';

export interface UserShowOptions {
  ref: string;
}

export async function runUserShow(options: UserShowOptions, deps: Deps): Promise<void> {
  const text = options.ref.trim();
  const output = await openOutput(deps, 'listUsers');
  const api = await deps.api();
  let user: UserListItem | undefined;
  if (/^\d+$/.test(text)) {
    user = await findUserById(api, parseId(text, 'ID'));
  } else if (text.includes('@')) {
    user = await findUserByEmail(api, parseEmail(text, 'EMAIL'), await userLookup(deps));
  } else {
    user = await findUserByReference(api, text, deps);
  }
  if (!user) {
    throw new NoAccessError(
      `No user ${text} in your organisation.`,
      'Check it with `loanctl user list`, or look by phone or name: loanctl user find --phone … | --name ….',
    );
  }
  await output.print(user);
}

async function findUserByReference(api: ApiClient, reference: string, deps: Deps): Promise<UserListItem | undefined> {
  const first = ((await api.call('listUsers', { query: { pages: 1 } })).data ?? []) as UserListItem[];
  if (first.length > 0 && !listCarriesReference(first)) {
    throw new NoAccessError(
      `Cannot look a user up by reference (${reference}): the API's user list does not carry references.`,
      'Look by id, e-mail, phone or name instead: loanctl user show ID|EMAIL, or loanctl user find --phone … | --name ….',
    );
  }
  let user: UserListItem | undefined;
  const progress = startWalkProgress(deps, 'users');
  let scanned = 0;
  try {
    const found = (hits: UserListItem[]) => {
      user = hits[0];
    };
    ({ scanned } = await scanUsers(api, referenceMatcher(reference), found, () => user !== undefined, progress.page));
  } finally {
    progress.stop();
  }
  notice(deps, `Scanned ${scanned} user${scanned === 1 ? '' : 's'}.`);
  return user;
}

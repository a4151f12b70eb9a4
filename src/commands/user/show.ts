/**
 * `loanctl user show ID|EMAIL|REFERENCE`: one borrower. The API has no user read (spec 4.3), so
 * this looks in the user list, client-side: an id by bisecting the pages (they are ordered by id),
 * an e-mail as `loan create --user` does (the local index, else newest first), a reference by
 * walking the streamed pages (the number of users looked at goes to stderr).
 */
import type { UserListItem } from '../../contract/schemas.js';
import type { Deps } from '../../deps.js';
import { findUserById, referenceMatcher, scanUsers } from '../../domain/user-find.js';
import { userLookup } from '../../domain/user-lookup.js';
import { findUserByEmail } from '../../domain/users.js';
import { NoAccessError } from '../../errors.js';
import { parseEmail, parseId } from '../../input/values.js';
import { notice } from '../../output/notice.js';
import { openOutput } from '../../output/output.js';

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
    const { scanned } = await scanUsers(
      api,
      referenceMatcher(text),
      (hits) => {
        user = hits[0];
      },
      () => user !== undefined,
    );
    notice(deps, `Scanned ${scanned} user${scanned === 1 ? '' : 's'}.`);
  }
  if (!user) {
    throw new NoAccessError(
      `No user ${text} in your organisation.`,
      'Check it with `loanctl user list`, or look by phone or name: loanctl user find --phone … | --name ….',
    );
  }
  await output.print(user);
}

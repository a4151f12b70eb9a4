/**
 * `loanctl user show ID|EMAIL|REFERENCE`: one borrower. The API has no user read (spec 4.3), so
 * this looks in the user list, client-side: an id by bisecting the pages (they are ordered by id),
 * an e-mail through the local index of borrowers (src/domain/borrower-index.ts), a reference by
 * the e-mail loanctl saw it with (below).
 */

import { referencedEmail } from '../../config/user-index.js';
import type { UserListItem } from '../../contract/schemas.js';
import type { Deps } from '../../deps.js';
import { findUserById } from '../../domain/user-find.js';
import { rememberListed, userLookup } from '../../domain/user-lookup.js';
import { findUserByEmail } from '../../domain/users.js';
import { NoAccessError } from '../../errors.js';
import type { ApiClient } from '../../http/api-client.js';
import { parseEmail, parseId } from '../../input/values.js';
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
    const lookup = await userLookup(deps);
    user = await findUserByEmail(api, parseEmail(text, 'EMAIL'), lookup);
    rememberListed(lookup, [user]);
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

/**
 * The borrower loanctl saw with this reference (user create, its --from, show, find), found by the
 * e-mail it was seen with and confirmed by the server as any e-mail is. The API cannot look a
 * borrower up by reference (its list carries none, spec 2.2): one never seen says what to use.
 */
async function findUserByReference(api: ApiClient, reference: string, deps: Deps): Promise<UserListItem> {
  const lookup = await userLookup(deps);
  const email = lookup.paths && referencedEmail(lookup.paths, reference);
  if (email === undefined) {
    throw new NoAccessError(
      `Reference ${reference} was never seen by loanctl on this profile, and the API cannot look a borrower up by reference.`,
      'Use the e-mail or the id instead: loanctl user show EMAIL|ID (references are remembered from user create, its --from, show and find).',
    );
  }
  const user = await findUserByEmail(api, email, lookup);
  const listed = (user as { reference?: unknown }).reference;
  if (typeof listed === 'string' && listed.toUpperCase() !== reference.trim().toUpperCase()) {
    throw new NoAccessError(
      `Reference ${reference} was seen with ${email}, but the server now lists ${email} with reference ${listed}.`,
      'Use the e-mail or the id instead: loanctl user show EMAIL|ID.',
    );
  }
  return user;
}

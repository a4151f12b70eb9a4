/**
 * How a command looks borrowers up: through the local index of the profile in use
 * (src/config/user-index.ts, src/domain/borrower-index.ts). None under --dry-run or without a base
 * URL: the look-up then walks the list each time.
 */
import { indexPaths, referenceBatch, rememberReferences } from '../config/user-index.js';
import type { UserListItem } from '../contract/schemas.js';
import type { Deps } from '../deps.js';
import { BorrowerIndex } from './borrower-index.js';
import type { FindUserOptions } from './users.js';

export async function userLookup(deps: Deps): Promise<FindUserOptions> {
  const settings = await deps.settings();
  if (settings.baseUrl === undefined || settings.dryRun) return {};
  const paths = indexPaths(deps.env, settings.profile?.name, settings.baseUrl);
  const index = new BorrowerIndex(await deps.api(), paths, (line) => deps.io.stderr.write(`${line}\n`));
  return { index, paths };
}

/**
 * Remembers the references of users a server listed with one (the spec's list carries none; a
 * server may add it), for `user show REFERENCE`.
 */
export function rememberListed(lookup: FindUserOptions, users: readonly UserListItem[]): void {
  if (!lookup.paths) return;
  const pairs = users.flatMap((user) => {
    const reference = (user as { reference?: unknown }).reference;
    return typeof reference === 'string' && reference !== '' && typeof user.email === 'string'
      ? [{ reference, email: user.email }]
      : [];
  });
  rememberReferences(lookup.paths, pairs);
}

/** How a bulk run remembers the references it sees (none under --dry-run or without a base URL). */
export async function referencesSeen(deps: Deps): Promise<ReturnType<typeof referenceBatch> | undefined> {
  const settings = await deps.settings();
  if (settings.baseUrl === undefined || settings.dryRun) return undefined;
  return referenceBatch(indexPaths(deps.env, settings.profile?.name, settings.baseUrl));
}

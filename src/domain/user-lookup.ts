/**
 * How a command looks a borrower up by e-mail: through the local index of the profile in use
 * (src/config/user-index.ts) and with the run's clock for the search's creation windows.
 */
import { fileUserIndex, userIndexPath } from '../config/user-index.js';
import type { Deps } from '../deps.js';
import type { FindUserOptions } from './users.js';

export async function userLookup(deps: Deps): Promise<FindUserOptions> {
  const settings = await deps.settings();
  const index =
    settings.baseUrl === undefined || settings.dryRun
      ? undefined
      : fileUserIndex(userIndexPath(deps.env, settings.profile?.name, settings.baseUrl));
  return { index, today: deps.now() };
}

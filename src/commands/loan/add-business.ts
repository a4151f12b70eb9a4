/**
 * The default org id of `loanctl loan add-business ID …` (spec 4.11, every field of 2.6 as a flag;
 * the verb is ./add-business-verb.ts).
 *
 * The body needs the organisation's id. Without `--org-id` (or `org_id` in `--data`) it is the
 * profile's org id if the profile has one, else the `org_id` of the first user in the user list
 * (every user of the list belongs to the caller's organisation); a notice on stderr says which.
 */
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { notice } from './common.js';

/** The profile's org id, else the org_id of the user list's first user; else exit 2 naming --org-id. */
export async function defaultOrgId(deps: Deps): Promise<number> {
  const settings = await deps.settings();
  if (settings.orgId !== undefined) {
    notice(deps, `Using org id ${settings.orgId} from profile "${settings.profile?.name}" (pass --org-id to choose).`);
    return settings.orgId;
  }
  const api = await deps.api();
  const result = await api.call('listUsers', { query: { pages: 1 } });
  const first = result.data[0];
  if (!first) {
    throw new UsageError(
      'Missing --org-id: the business body needs your organisation id, and your user list is empty so it cannot be looked up.',
      'Pass --org-id N.',
    );
  }
  notice(deps, `Using org id ${first.org_id}, your organisation's, from the user list (pass --org-id to choose).`);
  return first.org_id;
}

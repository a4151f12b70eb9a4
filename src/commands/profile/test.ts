/**
 * `loanctl profile test [NAME]`: where the profile's key is, and whether the server takes it,
 * checked with one harmless read: "does a user with this address exist?" for an address under
 * `.invalid` (RFC 2606), which names no real person and changes nothing.
 *
 * Exit codes are the usual ones (docs/guide.md#exit-codes): 0 the key was accepted, 3 rejected (or not
 * readable from the keyring), 5 the server could not be reached.
 */

import { keyStorageOf } from '../../config/store.js';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { render } from '../../output/render.js';

export interface ProfileTestOptions {
  name?: string | undefined;
}

const PROBE_EMAIL = 'loanctl-profile-test@example.invalid';

export async function runProfileTest(options: ProfileTestOptions, deps: Deps): Promise<void> {
  const store = await deps.config();
  const name = options.name ?? deps.globals.profile ?? (deps.env.LOANCTL_PROFILE || undefined) ?? store.current;
  if (!name) {
    throw new UsageError('There is no current profile.', 'Add one with: loanctl profile add NAME --base-url URL');
  }
  const profile = store.require(name);
  // The same settings every command of this profile gets: a flag or LOANCTL_* still wins.
  deps.globals = { ...deps.globals, profile: name };
  const settings = await deps.settings();
  const storage = settings.apiKeySource === 'env' ? 'env' : keyStorageOf(profile);
  deps.io.stderr.write(`Profile "${name}": ${describe(storage)}. Checking it with one read…\n`);
  const api = await deps.api();
  await api.call('userExists', { query: { email: PROBE_EMAIL, action: 'exists' } });
  await render({ profile: name, base_url: settings.baseUrl ?? null, key_storage: storage, result: 'ok' }, {}, deps);
}

function describe(storage: 'keyring' | 'file' | 'env'): string {
  if (storage === 'keyring') return 'the API key is in the OS keyring';
  if (storage === 'file') return 'the API key is in the config file';
  return 'the API key comes from LOANCTL_API_KEY, which wins over the profile';
}

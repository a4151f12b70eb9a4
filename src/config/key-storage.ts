/**
 * Where a profile's API key lives: in the OS keyring where one answers, else in the 0600 config
 * file. `--insecure-storage` chooses the file on purpose. The profile records which
 * (`keyringAccount`, or `apiKey` itself), so reading a key never has to guess or probe.
 *
 * Moving a key (a profile added again, `profile move-key`) always writes the new place before it
 * deletes the old one: an interruption can leave a stale copy behind, never no copy at all.
 */
import { AuthError } from '../errors.js';
import { KEYRING_SERVICE, KeyringUnavailable, keyringDelete, keyringGet, keyringSet } from './keyring.js';
import { keyStorageOf, type Profile, type ProfileStore } from './store.js';

export type KeyStorage = ReturnType<typeof keyStorageOf>;

/** A profile without its key: what is written next to the key, wherever the key goes. */
export type ProfileFields = Omit<Profile, 'apiKey' | 'keyringAccount'>;

/**
 * The keyring account of a profile: its name and config file, so two config directories (a test's,
 * a second LOANCTL_CONFIG_DIR) never share a key, and a keyring viewer shows whose key it is.
 */
function accountFor(store: ProfileStore, name: string): string {
  return `${name}@${store.path}`;
}

function fieldsOf(profile: Profile): ProfileFields {
  const { apiKey: _key, keyringAccount: _account, ...fields } = profile;
  return fields;
}

export interface SaveKeyOptions {
  /** Keep the key in the file even where a keyring answers. */
  insecureStorage?: boolean;
  makeCurrent?: boolean;
  makeCurrentIfNone?: boolean;
  /** Where a warning goes (one line, no prefix). */
  warn: (line: string) => void;
}

export interface SavedKey {
  storage: KeyStorage;
  /** Whether the profile is the current one. */
  current: boolean;
  /** Why the key is in the file though the keyring was asked for (KeyringUnavailable's reason). */
  fallbackReason?: string;
}

/** Adds or replaces a profile with its key, in the keyring unless told otherwise or none answers. */
export async function saveProfileWithKey(
  store: ProfileStore,
  name: string,
  fields: ProfileFields,
  apiKey: string,
  options: SaveKeyOptions,
): Promise<SavedKey> {
  const previous = store.get(name);
  const where = { makeCurrent: options.makeCurrent, makeCurrentIfNone: options.makeCurrentIfNone };
  let fallbackReason: string | undefined;
  if (!options.insecureStorage) {
    // Replacing a profile's key in the keyring overwrites the same entry: the key given now wins.
    const account = previous?.keyringAccount ?? accountFor(store, name);
    try {
      await keyringSet(account, apiKey);
      // Written without `apiKey`: a key this profile had in the file is gone only now.
      return { storage: 'keyring', current: store.set(name, { ...fields, keyringAccount: account }, where) };
    } catch (error) {
      if (!(error instanceof KeyringUnavailable)) throw error;
      fallbackReason = error.reason;
    }
  }
  const current = store.set(name, { ...fields, apiKey }, where);
  if (previous?.keyringAccount !== undefined) await forget(name, previous.keyringAccount, options.warn);
  return { storage: 'file', current, fallbackReason };
}

/**
 * Replaces the key of an existing profile where the profile keeps it: the same keyring entry, or
 * the file. Throws an AuthError (exit 3) when the keyring does not answer; the old key then stays.
 */
export async function replaceProfileKey(store: ProfileStore, name: string, apiKey: string): Promise<KeyStorage> {
  const profile = store.require(name);
  if (profile.keyringAccount === undefined) {
    store.patch(name, { apiKey });
    return 'file';
  }
  try {
    await keyringSet(profile.keyringAccount, apiKey);
  } catch (error) {
    throw keyringError(
      error,
      `Could not change the API key of profile "${name}" in the OS keyring`,
      'The old key stays.',
    );
  }
  return 'keyring';
}

/**
 * Moves a profile's key to `to`; returns false when it was there already. Throws an AuthError
 * (exit 3) when the keyring does not answer or does not keep the key; the key stays where it was.
 */
export async function moveProfileKey(
  store: ProfileStore,
  name: string,
  to: KeyStorage,
  warn: (line: string) => void,
): Promise<boolean> {
  const profile = store.require(name);
  if (keyStorageOf(profile) === to) return false;
  if (to === 'keyring') {
    const key = profile.apiKey as string;
    const account = accountFor(store, name);
    try {
      await keyringSet(account, key);
      // Read it back: the file's copy is deleted next, so the keyring must really hold it.
      if ((await keyringGet(account)) !== key) throw new KeyringUnavailable('the keyring did not keep the key');
    } catch (error) {
      throw keyringError(
        error,
        `Could not move the API key of profile "${name}" to the OS keyring`,
        'It is still in the file.',
      );
    }
    store.set(name, { ...fieldsOf(profile), keyringAccount: account });
  } else {
    const account = profile.keyringAccount as string;
    store.set(name, { ...fieldsOf(profile), apiKey: await readKeyringKey(name, account) });
    await forget(name, account, warn);
  }
  return true;
}

/** The key of a profile kept in the keyring, or an AuthError (exit 3) that says what to do. */
export async function readKeyringKey(name: string, account: string): Promise<string> {
  let key: string | undefined;
  try {
    key = await keyringGet(account);
  } catch (error) {
    throw keyringError(
      error,
      `The API key of profile "${name}" is in the OS keyring, which did not answer`,
      'Unlock the keyring (or run where your desktop session is), or set LOANCTL_API_KEY.',
    );
  }
  if (key === undefined) {
    throw new AuthError(
      `The OS keyring holds no API key for profile "${name}" (service "${KEYRING_SERVICE}", account "${account}").`,
      `Add it again: loanctl profile add ${name} --base-url URL`,
    );
  }
  return key;
}

/** Deletes a key from the keyring after its new place is written; a failure leaves a copy and says where. */
export async function forget(name: string, account: string, warn: (line: string) => void): Promise<void> {
  try {
    await keyringDelete(account);
  } catch (error) {
    if (!(error instanceof KeyringUnavailable)) throw error;
    warn(
      `the old API key of profile "${name}" is still in the OS keyring (service "${KEYRING_SERVICE}", account "${account}"): ${error.message}. Delete it there.`,
    );
  }
}

function keyringError(error: unknown, what: string, hint: string): unknown {
  if (!(error instanceof KeyringUnavailable)) return error;
  return new AuthError(`${what}: ${error.message}.`, hint);
}

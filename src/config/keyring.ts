/**
 * The OS keyring (Secret Service on Linux, Keychain on macOS, Credential Manager on Windows),
 * through `@napi-rs/keyring`: maintained, prebuilt N-API binaries per platform as optional
 * dependencies (no install script, no compiler), unlike the archived `keytar`.
 *
 * The library is imported only here and only when a key is read or written through the keyring,
 * so a command run with LOANCTL_API_KEY, or with no key at all, never loads the native module.
 *
 * On Linux the entry is pinned to the Secret Service: the library would otherwise fall back,
 * silently, to the kernel keyring, which lives in memory and loses every key at the next reboot.
 * Without a Secret Service we would rather say so and use the 0600 file (see key-storage.ts).
 */

import { IS_BINARY } from '../version.js';

export const KEYRING_SERVICE = 'loanctl';

/** No keyring answered (no D-Bus session, no Secret Service, a locked keyring with no one to unlock it…). */
export class KeyringUnavailable extends Error {
  /** Why, as a warning says it: the keyring's own words, or loanctl's where it refused first. */
  get reason(): string {
    return this.cause instanceof Error && this.cause.name === ADDON_REFUSED
      ? this.message
      : `no OS keyring answered (${this.message})`;
  }
}

/** The name of keyring-addon.ts's AddonRefused: its message is already a sentence for the operator. */
const ADDON_REFUSED = 'AddonRefused';

type Entry = import('@napi-rs/keyring').AsyncEntry;

async function entry(account: string): Promise<Entry> {
  try {
    const { AsyncEntry } = await loadKeyring();
    return new AsyncEntry(KEYRING_SERVICE, account, { linux: { store: 'secret-service' } });
  } catch (error) {
    throw unavailable(error);
  }
}

/** From node_modules; in the single executable, from its asset (keyring-addon.ts). */
async function loadKeyring(): Promise<typeof import('@napi-rs/keyring')> {
  if (IS_BINARY) return (await import('./keyring-addon.js')).keyringFromAsset();
  return import('@napi-rs/keyring');
}

async function attempt<T>(account: string, action: (entry: Entry) => Promise<T>): Promise<T> {
  const found = await entry(account);
  try {
    return await action(found);
  } catch (error) {
    throw unavailable(error);
  }
}

export function keyringSet(account: string, key: string): Promise<void> {
  return attempt(account, (found) => found.setPassword(key));
}

/** The stored key, or undefined when the keyring answers but holds none for this account. */
export function keyringGet(account: string): Promise<string | undefined> {
  return attempt(account, async (found) => (await found.getPassword()) ?? undefined);
}

/** Whether there was a key to delete. */
export function keyringDelete(account: string): Promise<boolean> {
  return attempt(account, (found) => found.deletePassword());
}

/** The library's message, on one line (it never contains the key: only the keyring's own words). */
function unavailable(error: unknown): KeyringUnavailable {
  const text = error instanceof Error ? error.message : String(error);
  return new KeyringUnavailable(text.replace(/\s+/g, ' ').trim() || 'no answer', { cause: error });
}

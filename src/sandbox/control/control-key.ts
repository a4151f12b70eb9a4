/**
 * The control plane's own key: what a test suite sends to the sandbox's `/__sandbox/…` routes
 * (../control-routes.ts) to read what the sandbox received. It is not an organisation's API key:
 * the request log it opens holds every organisation's requests. Made on the first start of a data
 * dir and kept there in `control-key` (mode 0600), so a restarted sandbox answers to the same key;
 * `sandbox start` prints it, and the CLI's own verbs read it from the data dir.
 */
import { chmodSync, closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { API_KEY_PREFIX, randomString } from '../secrets.js';

const CONTROL_KEY_FILE = 'control-key';

/**
 * `sk_sandbox_control_` and 32 base62 characters: the API keys' prefix, so the request log hides
 * it wherever a client sends it by mistake (../log/entry.ts hides every key of that prefix).
 */
const CONTROL_KEY = new RegExp(`^${API_KEY_PREFIX}control_[0-9A-Za-z]{32}$`);

function controlKeyPath(dataDir: string): string {
  return join(dataDir, CONTROL_KEY_FILE);
}

/** The data dir's control key, if one was made and the file holds one. */
export function readControlKey(dataDir: string): string | undefined {
  try {
    const key = readFileSync(controlKeyPath(dataDir), 'utf8').trim();
    return CONTROL_KEY.test(key) ? key : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The data dir's control key, made now if it has none. A file that does not hold a key is
 * replaced: the key is only ever read back through this module, and a start must not fail on it.
 */
export function ensureControlKey(dataDir: string): string {
  const existing = readControlKey(dataDir);
  if (existing) return existing;
  const key = `${API_KEY_PREFIX}control_${randomString(32)}`;
  const fd = openSync(controlKeyPath(dataDir), 'w', 0o600);
  try {
    writeSync(fd, `${key}\n`);
    chmodSync(controlKeyPath(dataDir), 0o600);
  } finally {
    closeSync(fd);
  }
  return key;
}

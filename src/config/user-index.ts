/**
 * The local index of borrowers found by e-mail: e-mail → user id and where the user list shows it
 * (window and page), one file per profile and base URL in the cache directory
 * (`$LOANCTL_CONFIG_DIR/cache` when that is set, else `$XDG_CACHE_HOME/loanctl`, else
 * `~/.cache/loanctl`), e.g. `users-prod-3f2a9c1d0b4e.json`.
 *
 * It is only a hint: a sandbox that was reset or restored gives the same e-mail another id, so an
 * entry is trusted only after the user list, asked for that window and page again, shows that id
 * with that e-mail (one request; src/domain/users.ts). Deleting the files (`loanctl cache clear`)
 * costs nothing but a slower next look-up. At most MAX_ENTRIES are kept, the oldest dropped first.
 * A FIFO, directory or device where the file should be is refused at once (never read).
 */
import { createHash } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { Env } from '../basics.js';
import { makeDir } from '../make-dir.js';
import { readRegularFile, withFileLock, writeFileAtomic } from './locked-write.js';

export interface IndexedUser {
  id: number;
  start?: string;
  end?: string;
  page: number;
}

export interface UserIndex {
  get(email: string): IndexedUser | undefined;
  put(email: string, entry: IndexedUser): void;
  drop(email: string): void;
}

const MAX_ENTRIES = 10_000;
const FILE_PREFIX = 'users-';

/** `$LOANCTL_CONFIG_DIR/cache` when that is set (everything of loanctl in one place), else the XDG cache dir. */
export function cacheDir(env: Env): string {
  if (env.LOANCTL_CONFIG_DIR) return join(env.LOANCTL_CONFIG_DIR, 'cache');
  if (env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)) return join(env.XDG_CACHE_HOME, 'loanctl');
  return join(env.HOME || homedir(), '.cache', 'loanctl');
}

/** The index file of a profile (or of the environment's settings, `env`) at a base URL. */
export function userIndexPath(env: Env, profile: string | undefined, baseUrl: string): string {
  const site = createHash('sha256').update(baseUrl).digest('hex').slice(0, 12);
  return join(cacheDir(env), `${FILE_PREFIX}${profile ?? 'env'}-${site}.json`);
}

/** The index kept in `path`. A file that is missing or unreadable is an empty index, never an error. */
export function fileUserIndex(path: string): UserIndex {
  const update = (change: (entries: Record<string, IndexedUser>) => void) => {
    try {
      makeDir(join(path, '..'));
      withFileLock(path, () => {
        const entries = readEntries(path);
        change(entries);
        writeFileAtomic(path, `${JSON.stringify(newest(entries))}\n`);
      });
    } catch {
      // A cache that cannot be written (read-only home, full disk) only makes the next look-up slower.
    }
  };
  return {
    get: (email) => {
      const entry = readEntries(path)[email];
      return isIndexedUser(entry) ? entry : undefined;
    },
    put: (email, entry) =>
      update((entries) => {
        delete entries[email]; // re-added last: the newest entry is kept longest
        entries[email] = entry;
      }),
    drop: (email) =>
      update((entries) => {
        delete entries[email];
      }),
  };
}

/** Removes every index file; returns how many there were. */
export function clearUserIndexes(env: Env): { dir: string; removed: number } {
  const dir = cacheDir(env);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.startsWith(FILE_PREFIX) && name.endsWith('.json'));
  } catch {
    return { dir, removed: 0 };
  }
  for (const name of names) rmSync(join(dir, name), { force: true });
  return { dir, removed: names.length };
}

/**
 * The entries of the file. One that is not a file (a FIFO would block the read forever) stops the
 * command with one line (../config/locked-write.ts); unreadable JSON is an empty index, since no
 * entry is believed before the server confirms it anyway.
 */
function readEntries(path: string): Record<string, IndexedUser> {
  const text = readRegularFile(path, 'the e-mail index cache');
  if (text === undefined) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, IndexedUser>)
      : {};
  } catch {
    return {};
  }
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** An entry as written by `put` (the file is the user's to edit, or to break). */
function isIndexedUser(entry: IndexedUser | undefined): entry is IndexedUser {
  if (typeof entry !== 'object' || entry === null) return false;
  const day = (value: unknown) => value === undefined || (typeof value === 'string' && DAY.test(value));
  return (
    Number.isSafeInteger(entry.id) &&
    Number.isSafeInteger(entry.page) &&
    entry.page >= 1 &&
    day(entry.start) &&
    day(entry.end)
  );
}

function newest(entries: Record<string, IndexedUser>): Record<string, IndexedUser> {
  const keys = Object.keys(entries);
  if (keys.length <= MAX_ENTRIES) return entries;
  return Object.fromEntries(keys.slice(-MAX_ENTRIES).map((key) => [key, entries[key] as IndexedUser]));
}

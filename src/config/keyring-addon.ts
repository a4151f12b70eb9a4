/**
 * The keyring's native addon inside the single executable (scripts/package.mjs). Node loads a
 * `.node` file only from disk, and the binary has no node_modules: the addon travels as the asset
 * `keyring.node`, is written once to a private cache dir, named by its sha256, and loaded from
 * there. Loading it runs its code as the user, so no one else may choose what is loaded:
 *
 * - the cache dir and its `native/` dir must be directories (not links) of this user that no one
 *   else can write — one another user made (a shared $XDG_CACHE_HOME) or left open is refused;
 * - the file is written under a name no one can have prepared (O_CREAT|O_EXCL|O_NOFOLLOW, 0600)
 *   and renamed into place;
 * - the copy is opened once without following a link, checked (a regular file of this user, one
 *   link) and hashed through that descriptor, and on Linux loaded through the same descriptor
 *   (/proc/self/fd/N): the bytes loaded are the bytes checked. A file that does not match is
 *   replaced, never run.
 *
 * Any failure is thrown as AddonRefused (one line: what and what to do), and the caller
 * (keyring.ts) turns it into KeyringUnavailable: the key goes to the 0600 file, as without a keyring.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../basics.js';
import { makeDir } from '../make-dir.js';
import { cacheDir } from './user-index.js';

/** The asset's key in the binary (scripts/package.mjs writes it under this name). */
export const KEYRING_ASSET = 'keyring.node';

type Keyring = typeof import('@napi-rs/keyring');

/** Why the addon was not loaded, as a sentence that says what to do. */
export class AddonRefused extends Error {
  override name = 'AddonRefused';
}

export function keyringFromAsset(env: Env = process.env as Env): Keyring {
  const { getRawAsset } = process.getBuiltinModule('node:sea');
  return loadAddon(Buffer.from(getRawAsset(KEYRING_ASSET)), cacheDir(env)) as Keyring;
}

/** Loads `addon` (a native module's bytes) through a private copy under `root`/native. */
export function loadAddon(addon: Buffer, root: string): unknown {
  const { fd, file } = privateCopy(addon, privateDir(root, ['native']), (hash) => `keyring-${hash.slice(0, 16)}.node`);
  try {
    const module = { exports: {} };
    process.dlopen(module, process.platform === 'linux' ? `/proc/self/fd/${fd}` : file);
    return module.exports;
  } finally {
    closeSync(fd);
  }
}

/** `root`/`name`, made if need be, each checked private (as the top of this file says). */
export function privateDir(root: string, names: readonly string[], what?: string): string {
  let path = root;
  for (const next of ['', ...names]) {
    path = next === '' ? path : join(path, next);
    try {
      makeDir(path, 0o700);
    } catch (error) {
      throw refused(path, error, what);
    }
    checkPrivateDir(path);
  }
  return path;
}

/**
 * `bytes` kept in the private `dir` under `name(sha256)`: written if missing or not exactly these
 * bytes; returns a checked descriptor of it (the caller closes it) and its path.
 */
export function privateCopy(
  bytes: Buffer,
  dir: string,
  name: (hash: string) => string,
  what?: string,
): { fd: number; file: string } {
  const hash = sha256(bytes);
  const file = join(dir, name(hash));
  let fd = openChecked(file, hash);
  if (fd === undefined) {
    try {
      writeAtomically(file, bytes);
    } catch (error) {
      throw refused(dir, error, what);
    }
    fd = openChecked(file, hash);
    if (fd === undefined)
      throw new AddonRefused(`${what ?? 'the keyring library'} written to ${file} did not read back whole`);
  }
  return { fd, file };
}

const HINT = 'set XDG_CACHE_HOME to a directory of your own';

/** A directory of this user, not a link, that no one else can write to; else AddonRefused. */
function checkPrivateDir(path: string): void {
  // Windows has no owner ids or mode bits to compare; the dir is under the user's own profile.
  if (process.getuid === undefined) return;
  const info = lstatSync(path);
  const where = `loanctl's cache directory ${path}`;
  if (!info.isDirectory()) throw new AddonRefused(`${where} is not a directory (a link?): remove it, or ${HINT}`);
  if (info.uid !== process.getuid()) {
    throw new AddonRefused(`${where} belongs to another user (uid ${info.uid}): remove it, or ${HINT}`);
  }
  if ((info.mode & 0o022) !== 0) {
    const mode = (info.mode & 0o777).toString(8);
    throw new AddonRefused(`others can write to ${where} (mode ${mode}): chmod 700 it, or ${HINT}`);
  }
}

/**
 * A descriptor of `file` if it is a regular file of this user with one link and exactly the
 * asset's bytes (read through the descriptor itself); else undefined.
 */
function openChecked(file: string, hash: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  const info = fstatSync(fd);
  const mine = process.getuid === undefined || info.uid === process.getuid();
  if (info.isFile() && info.nlink === 1 && mine && sha256(readAll(fd, info.size)) === hash) return fd;
  closeSync(fd);
  return undefined;
}

function readAll(fd: number, size: number): Buffer {
  const bytes = Buffer.alloc(size);
  let read = 0;
  for (let got = 1; got > 0 && read < size; read += got) got = readSync(fd, bytes, read, size - read, read);
  return bytes.subarray(0, read);
}

/**
 * Written under a fresh name made for this write (O_EXCL: never a file or link someone prepared),
 * then renamed into place: a second loanctl starting at the same moment never loads half a file.
 */
function writeAtomically(file: string, bytes: Buffer): void {
  const partial = `${file}.${randomBytes(8).toString('hex')}.tmp`;
  const fd = openSync(partial, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
  } catch (error) {
    closeSync(fd);
    unlinkSync(partial);
    throw error;
  }
  closeSync(fd);
  renameSync(partial, file);
}

/** A directory the addon cannot be kept in, said with what to do: EACCES on a read-only cache. */
function refused(path: string, error: unknown, what = 'the keyring library'): AddonRefused {
  const code = (error as NodeJS.ErrnoException).code;
  const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EROFS' ? 'read-only' : code;
  return new AddonRefused(
    `${what} cannot be kept in loanctl's cache directory ${path} (${why ?? (error as Error).message}): make it writable, or ${HINT}`,
    { cause: error },
  );
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

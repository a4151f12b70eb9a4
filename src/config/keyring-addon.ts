/**
 * The keyring's native addon inside the single executable (scripts/package.mjs). Node loads a
 * `.node` file only from disk, and the binary has no node_modules: the addon travels as the asset
 * `keyring.node`, is written once to a private cache dir (0700, the file 0600), named by its
 * sha256, and loaded from there. The copy on disk is checked against the asset before each load —
 * a file someone else put there is replaced, never run. Any failure is thrown, and the caller
 * (keyring.ts) turns it into KeyringUnavailable: the key goes to the 0600 file, as without a keyring.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../basics.js';
import { makeDir } from '../make-dir.js';
import { cacheDir } from './user-index.js';

/** The asset's key in the binary (scripts/package.mjs writes it under this name). */
export const KEYRING_ASSET = 'keyring.node';

type Keyring = typeof import('@napi-rs/keyring');

export function keyringFromAsset(env: Env = process.env as Env): Keyring {
  const { getRawAsset } = process.getBuiltinModule('node:sea');
  const addon = Buffer.from(getRawAsset(KEYRING_ASSET));
  const hash = sha256(addon);
  const dir = join(cacheDir(env), 'native');
  makeDir(dir, 0o700);
  const file = join(dir, `keyring-${hash.slice(0, 16)}.node`);
  if (!holds(file, hash)) writeAtomically(file, addon);
  const module = { exports: {} as Keyring };
  process.dlopen(module, file);
  return module.exports;
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Whether `file` is there with exactly the asset's bytes. */
function holds(file: string, hash: string): boolean {
  try {
    return sha256(readFileSync(file)) === hash;
  } catch {
    return false;
  }
}

/** Written beside, then renamed: a second loanctl starting at the same moment never loads half a file. */
function writeAtomically(file: string, bytes: Buffer): void {
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, bytes, { mode: 0o600 });
  renameSync(partial, file);
}

/**
 * jq inside the single executable (scripts/package.mjs): jq-web's `jq.js` and `jq.wasm` travel as
 * assets, are kept in a private cache dir as the keyring's addon is (src/config/keyring-addon.ts:
 * owner-only directories, written O_EXCL|O_NOFOLLOW, checked by sha256 before use), side by side
 * in a directory named by their hashes, and `jq.js` is loaded from there with the `require` Node
 * documents for a single executable loading a file from disk (`module.createRequire`). jq.js finds
 * `jq.wasm` beside itself.
 */

import { createHash } from 'node:crypto';
import { closeSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Env } from '../basics.js';
import { privateCopy, privateDir } from '../config/keyring-addon.js';
import { cacheDir } from '../config/user-index.js';

/** The assets' keys in the binary (scripts/package.mjs writes them under these names). */
export const JQ_ASSETS = { js: 'jq.js', wasm: 'jq.wasm' } as const;

const WHAT = 'jq (for --jq)';

export async function jqFromAssets(env: Env = process.env as Env): Promise<{
  raw(input: string, filter: string, flags?: string[]): string;
}> {
  const { getRawAsset } = process.getBuiltinModule('node:sea');
  const js = Buffer.from(getRawAsset(JQ_ASSETS.js));
  const wasm = Buffer.from(getRawAsset(JQ_ASSETS.wasm));
  const both = createHash('sha256').update(js).update(wasm).digest('hex').slice(0, 16);
  const dir = privateDir(cacheDir(env), ['native', `jq-${both}`], WHAT);
  let file = '';
  for (const [bytes, name] of [
    [wasm, JQ_ASSETS.wasm],
    [js, JQ_ASSETS.js],
  ] as const) {
    const copy = privateCopy(bytes, dir, () => name, WHAT);
    closeSync(copy.fd);
    file = copy.file;
  }
  return createRequire(file)(file);
}

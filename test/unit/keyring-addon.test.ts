/**
 * How the single executable loads its keyring addon (src/config/keyring-addon.ts), with the real
 * addon's bytes from node_modules (the asset scripts/package.mjs puts in the binary) and a real
 * `process.dlopen`: loading it runs its code as the user, so no one else may choose what is loaded.
 */

import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AddonRefused, loadAddon } from '../../src/config/keyring-addon.js';

const require = createRequire(import.meta.url);
const ADDON = readFileSync(
  require.resolve(`@napi-rs/keyring-linux-${process.arch}-gnu/keyring.linux-${process.arch}-gnu.node`),
);
const IS_ROOT = process.getuid?.() === 0;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh cache root of this user's (0700), as loanctl makes it. */
function cacheRoot(): string {
  const base = mkdtempSync(join(tmpdir(), 'loanctl-addon-'));
  dirs.push(base);
  const root = join(base, 'loanctl');
  mkdirSync(root, { mode: 0o700 });
  return root;
}

/** The file name loanctl keeps the addon under (its sha256's first 16 hex digits). */
function addonFile(root: string): string {
  loadAddon(ADDON, root);
  const [name] = readdirSync(join(root, 'native'));
  return join(root, 'native', name as string);
}

describe.runIf(process.platform === 'linux')('the keyring addon of the single executable', () => {
  it('is written to a private cache (dir 0700, file 0600) and loaded from there', () => {
    const root = cacheRoot();
    const keyring = loadAddon(ADDON, root) as { AsyncEntry?: unknown };
    expect(typeof keyring.AsyncEntry).toBe('function');
    const file = addonFile(root);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, 'native')).mode & 0o777).toBe(0o700);
    expect(readFileSync(file).equals(ADDON)).toBe(true);
  });

  it('refuses a cache directory others can write to, in one line saying what to do, and writes nothing there', () => {
    const root = cacheRoot();
    chmodSync(root, 0o777);
    expect(() => loadAddon(ADDON, root)).toThrow(AddonRefused);
    expect(() => loadAddon(ADDON, root)).toThrow(
      `others can write to loanctl's cache directory ${root} (mode 777): chmod 700 it, or set XDG_CACHE_HOME to a directory of your own`,
    );
    expect(readdirSync(root)).toEqual([]);
  });

  it.runIf(IS_ROOT)('refuses a cache directory another user made (a shared XDG_CACHE_HOME)', () => {
    const root = cacheRoot();
    chownSync(root, 65_534, 65_534);
    expect(() => loadAddon(ADDON, root)).toThrow(
      `loanctl's cache directory ${root} belongs to another user (uid 65534)`,
    );
  });

  it('refuses a cache directory that is a link to somewhere else', () => {
    const root = cacheRoot();
    const elsewhere = cacheRoot();
    rmSync(root, { recursive: true });
    symlinkSync(elsewhere, root);
    expect(() => loadAddon(ADDON, root)).toThrow(/is not a directory \(a link\?\)/);
  });

  it('never writes through a link planted where the file is written (its temporary name is not guessable)', () => {
    const root = cacheRoot();
    const file = addonFile(root);
    rmSync(file);
    const victim = join(dirs[dirs.length - 1] as string, 'victim');
    writeFileSync(victim, 'the victim file\n');
    // The names a writer using this process's pid would take: each a link to the victim.
    symlinkSync(victim, `${file}.${process.pid}.tmp`);
    loadAddon(ADDON, root);
    expect(readFileSync(victim, 'utf8')).toBe('the victim file\n');
    expect(readFileSync(file).equals(ADDON)).toBe(true);
  });

  it('replaces a file or a link planted under its name with other bytes, and loads only the checked bytes', () => {
    const root = cacheRoot();
    const file = addonFile(root);
    const planted = join(dirs[dirs.length - 1] as string, 'planted.node');
    writeFileSync(planted, 'not the addon');
    rmSync(file);
    symlinkSync(planted, file);
    const keyring = loadAddon(ADDON, root) as { AsyncEntry?: unknown };
    expect(typeof keyring.AsyncEntry).toBe('function');
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(readFileSync(file).equals(ADDON)).toBe(true);
    expect(readFileSync(planted, 'utf8')).toBe('not the addon');
  });

  it('says in one line where it cannot keep the addon, and what to do', () => {
    const base = mkdtempSync(join(tmpdir(), 'loanctl-addon-'));
    dirs.push(base);
    writeFileSync(join(base, 'file'), '');
    const root = join(base, 'file', 'loanctl');
    expect(() => loadAddon(ADDON, root)).toThrow(
      new RegExp(
        `^the keyring library cannot be kept in loanctl's cache directory ${root} \\(.+\\): make it writable, or set XDG_CACHE_HOME to a directory of your own$`,
      ),
    );
    expect(existsSync(root)).toBe(false);
  });
});

/**
 * The profile store: one JSON file, `config.json`, in the config directory
 * (`$LOANCTL_CONFIG_DIR`, else `$XDG_CONFIG_HOME/loanctl`, else `~/.config/loanctl`).
 *
 * Why not `conf` (the library first chosen for profiles): it imports ajv, ajv-formats, semver, dot-prop and
 * atomically at load time, and this file is read on *every* API command, so it sits on the
 * start-up path we want short; and we need exact control of the file's mode (written 0600 on
 * every write, a looser mode found tightened with a warning) and of the directory's (0700, the
 * same).
 * A 100-line store with an atomic write (temp file + rename) does that with node:fs alone.
 *
 * Every change is a read-modify-write of the file under a lock (locked-write.ts): several loanctl
 * processes (twelve `profile add` from a script, a `sandbox start` beside them) each keep what the
 * others wrote, instead of the last one writing back the file as it was when it started.
 */
import { chmodSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { Env, GlobalOptions } from '../basics.js';
import { UsageError } from '../errors.js';
import { MakeDirError, makeDir } from '../make-dir.js';
import { checkBaseUrl } from './base-url.js';
import { readConfigFile } from './config-file.js';
import { withFileLock, writeFileAtomic } from './locked-write.js';

export interface Profile {
  baseUrl: string;
  /** The key itself, when it is kept in this file (chosen, or no keyring answered). */
  apiKey?: string;
  /** Else the account it is stored under in the OS keyring (key-storage.ts). */
  keyringAccount?: string;
  productId?: number;
  orgId?: number;
  /** The lender dashboard's loan page, `{id}` for the id (dashboard-url.ts; `loan open`). */
  dashboardUrl?: string;
  /** `-o csv` begins with a byte-order mark, as with `--bom` (for Excel); absent is no. */
  csvBom?: boolean;
}

/** Where a profile's key is; the file's copy wins, as it does when settings are resolved. */
export function keyStorageOf(profile: Profile): 'keyring' | 'file' {
  return profile.apiKey !== undefined ? 'file' : 'keyring';
}

export interface ConfigData {
  current?: string;
  profiles: Record<string, Profile>;
}

const CONFIG_FILE = 'config.json';
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function configDir(env: Env): string {
  if (env.LOANCTL_CONFIG_DIR) return env.LOANCTL_CONFIG_DIR;
  // A relative XDG path is ignored, as the XDG spec says (and as the sandbox's data dir does).
  if (env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME)) return join(env.XDG_CONFIG_HOME, 'loanctl');
  return join(env.HOME || homedir(), '.config', 'loanctl');
}

export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(
      `Invalid profile name "${name}".`,
      'Use letters, digits, ".", "_" or "-" (at most 64, starting with a letter or digit).',
    );
  }
  return name;
}

export interface StoreOptions {
  env?: Env;
  /** Where warnings go (a line without prefix or newline). Default: stderr. */
  warn?: (line: string) => void;
}

export class ProfileStore {
  readonly path: string;
  readonly dir: string;
  private data: ConfigData;
  private readonly warn: (line: string) => void;

  constructor(dir: string, data: ConfigData, warn: (line: string) => void = warnOnStderr) {
    this.dir = dir;
    this.path = join(dir, CONFIG_FILE);
    this.data = data;
    this.warn = warn;
  }

  get current(): string | undefined {
    return this.data.current && this.data.profiles[this.data.current] ? this.data.current : undefined;
  }

  names(): string[] {
    return Object.keys(this.data.profiles).sort();
  }

  get(name: string): Profile | undefined {
    return Object.hasOwn(this.data.profiles, name) ? this.data.profiles[name] : undefined;
  }

  /** The named profile, or a UsageError that lists the ones there are. */
  require(name: string): Profile {
    const profile = this.get(name);
    if (!profile) throw unknownProfile(name, this.names());
    return profile;
  }

  /** Adds or replaces a profile; returns whether it became the current one. */
  set(name: string, profile: Profile, options: { makeCurrent?: boolean; makeCurrentIfNone?: boolean } = {}): boolean {
    checkProfileName(name);
    checkBaseUrl(profile.baseUrl);
    const clean: Profile = { baseUrl: profile.baseUrl.replace(/\/+$/, '') };
    if (profile.apiKey !== undefined) clean.apiKey = profile.apiKey;
    if (profile.keyringAccount !== undefined) clean.keyringAccount = profile.keyringAccount;
    if (profile.productId !== undefined) clean.productId = profile.productId;
    if (profile.orgId !== undefined) clean.orgId = profile.orgId;
    if (profile.dashboardUrl !== undefined) clean.dashboardUrl = profile.dashboardUrl;
    if (profile.csvBom) clean.csvBom = true;
    return this.update((data) => {
      data.profiles[name] = clean;
      const makeCurrent = options.makeCurrent || (options.makeCurrentIfNone && !this.current);
      if (makeCurrent) data.current = name;
      return Boolean(makeCurrent) || this.current === name;
    });
  }

  /**
   * Changes some fields of an existing profile, the others as they are in the file now (re-read
   * under the lock, so a change another process made meanwhile is kept).
   */
  patch(
    name: string,
    fields: Partial<Pick<Profile, 'baseUrl' | 'apiKey' | 'productId' | 'orgId' | 'dashboardUrl' | 'csvBom'>>,
  ): void {
    if (fields.baseUrl !== undefined) checkBaseUrl(fields.baseUrl);
    this.update((data) => {
      const profile = data.profiles[name];
      if (!profile || !Object.hasOwn(data.profiles, name))
        throw unknownProfile(name, Object.keys(data.profiles).sort());
      const changed: Profile = { ...profile };
      if (fields.baseUrl !== undefined) changed.baseUrl = fields.baseUrl.replace(/\/+$/, '');
      if (fields.apiKey !== undefined) changed.apiKey = fields.apiKey;
      if (fields.productId !== undefined) changed.productId = fields.productId;
      if (fields.orgId !== undefined) changed.orgId = fields.orgId;
      if (fields.dashboardUrl !== undefined) changed.dashboardUrl = fields.dashboardUrl;
      // Off is the field's absence: the file says only what differs from the default.
      if (fields.csvBom === true) changed.csvBom = true;
      if (fields.csvBom === false) delete changed.csvBom;
      data.profiles[name] = changed;
    });
  }

  use(name: string): void {
    this.update((data) => {
      this.require(name);
      data.current = name;
    });
  }

  /** Removes a profile; returns whether it was the current one (which then leaves no current). */
  remove(name: string): boolean {
    return this.update((data) => {
      this.require(name);
      delete data.profiles[name];
      const wasCurrent = data.current === name;
      if (wasCurrent) delete data.current;
      return wasCurrent;
    });
  }

  /**
   * Applies `change` to the file as it is now (re-read under the lock, not as it was when this
   * store was opened), then replaces it atomically with mode 0600 in a 0700 directory.
   */
  private update<T>(change: (data: ConfigData) => T): T {
    try {
      makeDir(this.dir, 0o700);
    } catch (error) {
      if (!(error instanceof MakeDirError)) throw error;
      throw new UsageError(
        `Cannot write the config file: ${error.message}.`,
        'Set LOANCTL_CONFIG_DIR to a directory you can write.',
      );
    }
    // mkdir's mode applies only to a directory it creates: one made before, 0755, is tightened.
    tightenMode(this.dir, 0o700, this.warn);
    return withFileLock(this.path, () => {
      this.data = readConfigFile(this.path) ?? { profiles: {} };
      const result = change(this.data);
      writeFileAtomic(this.path, `${JSON.stringify(this.data, null, 2)}\n`, 'the config file');
      return result;
    });
  }
}

/** The profile in use and why: `--profile`, else LOANCTL_PROFILE, else the current one. */
export interface ChosenProfile {
  name: string;
  source: 'flag' | 'env' | 'current';
}

/** The profile a run uses (`--profile`, LOANCTL_PROFILE, the current one), or undefined; a name not stored is exit 2. */
export function pickProfile(globals: GlobalOptions, env: Env, store: ProfileStore): ChosenProfile | undefined {
  const named: [string | undefined, 'flag' | 'env'][] = [
    [globals.profile, 'flag'],
    [env.LOANCTL_PROFILE || undefined, 'env'],
  ];
  for (const [name, source] of named) {
    if (name === undefined) continue;
    if (!store.get(name)) throw unknownProfile(name, store.names());
    return { name, source };
  }
  return store.current ? { name: store.current, source: 'current' } : undefined;
}

function unknownProfile(name: string, names: string[]): UsageError {
  return new UsageError(
    `No profile named "${name}".`,
    names.length > 0
      ? `Profiles: ${names.join(', ')}. Add one with: loanctl profile add ${name} --base-url URL`
      : `There are no profiles yet. Add one with: loanctl profile add ${name} --base-url URL`,
  );
}

function warnOnStderr(line: string): void {
  process.stderr.write(`loanctl: warning: ${line}\n`);
}

/**
 * Reads the store (a missing file is an empty store). A file or directory found open to group or
 * others is tightened (0600, 0700) with a warning, or the warning says how when it cannot be.
 */
export function openProfileStore(options: StoreOptions = {}): ProfileStore {
  const env = options.env ?? process.env;
  const warn = options.warn ?? warnOnStderr;
  const dir = configDir(env);
  const path = join(dir, CONFIG_FILE);
  const data = readConfigFile(path);
  if (!data) return new ProfileStore(dir, { profiles: {} }, warn);
  tightenMode(dir, 0o700, warn);
  tightenMode(path, 0o600, warn);
  return new ProfileStore(dir, data, warn);
}

function tightenMode(path: string, mode: number, warn: (line: string) => void): void {
  if (process.platform === 'win32') return;
  const found = statSync(path).mode & 0o777;
  if ((found & 0o077) === 0) return;
  const octal = (bits: number) => bits.toString(8).padStart(4, '0');
  const was = `${path} was open to others (mode ${octal(found)}) and holds API keys`;
  try {
    chmodSync(path, mode);
    warn(`${was}; its mode is now ${octal(mode)}.`);
  } catch (error) {
    warn(`${was}; could not change it (${(error as NodeJS.ErrnoException).code}). Run: chmod ${octal(mode)} ${path}`);
  }
}

/**
 * Writes (adds or replaces) one profile in the store of `env`'s config directory. `sandbox start`
 * calls this to point a `sandbox` profile at itself.
 */
export function writeProfile(
  name: string,
  profile: { baseUrl: string; apiKey: string; productId?: number; orgId?: number },
  options: { makeCurrentIfNone?: boolean; makeCurrent?: boolean; env?: Env; warn?: (line: string) => void } = {},
): { path: string; current: boolean } {
  const store = openProfileStore({ env: options.env, warn: options.warn });
  const current = store.set(name, profile, options);
  return { path: store.path, current };
}

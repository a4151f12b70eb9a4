/**
 * The effective settings of a run, resolved in one place with one precedence:
 * flag > environment (LOANCTL_*) > profile > built-in default (docs/guide.md#profiles-and-keys).
 */
import type { Env, GlobalOptions } from '../basics.js';
import { UsageError } from '../errors.js';
import { parseDuration } from '../input/duration.js';
import { checkBaseUrl } from './base-url.js';
import { type ChosenProfile, type ProfileStore, pickProfile } from './store.js';

type Source = 'flag' | 'env' | 'profile' | 'default';

const DEFAULT_TIMEOUT_SECONDS = 30;

/**
 * What a run needs to reach the API. How it prints (format, fields, colour) is the output's own
 * concern: output/settings.ts resolves that from the same flags, environment and profile.
 */
export interface Settings {
  /** The profile in use and why, or undefined when none applies. */
  profile: ChosenProfile | undefined;
  baseUrl: string | undefined;
  baseUrlSource: Source | undefined;
  /** Never print this; use `redactKey`. */
  apiKey: string | undefined;
  apiKeySource: Source | undefined;
  /**
   * Where the profile keeps the key in the OS keyring, when that is where it comes from:
   * `deps.settings({ withKey: true })` reads it then (so other runs never load the keyring library).
   */
  keyringAccount?: string;
  productId: number | undefined;
  productIdSource: Source | undefined;
  orgId: number | undefined;
  /** The profile's lender dashboard loan page template (`{id}`), for `loan open`. */
  dashboardUrl?: string | undefined;
  timeoutMs: number;
  debug: boolean;
  dryRun: boolean;
}

export interface ResolveInput {
  globals: GlobalOptions;
  env: Env;
  store: ProfileStore;
}

export function resolveSettings({ globals, env, store }: ResolveInput): Settings {
  const profile = pickProfile(globals, env, store);
  const stored = profile ? store.get(profile.name) : undefined;

  const [baseUrlRaw, baseUrlSource] = first<string>(
    [globals.baseUrl, 'flag'],
    [env.LOANCTL_BASE_URL || undefined, 'env'],
    [stored?.baseUrl, 'profile'],
  );
  const baseUrl =
    baseUrlRaw === undefined
      ? undefined
      : checkBaseUrl(
          baseUrlRaw,
          baseUrlSource === 'env'
            ? 'LOANCTL_BASE_URL'
            : baseUrlSource === 'profile'
              ? `profile "${profile?.name}"`
              : '--base-url',
        );

  // A key never contains white space: `LOANCTL_API_KEY=$(cat key.txt)` may bring a trailing \r.
  const envKey = env.LOANCTL_API_KEY?.trim() || undefined;
  const [apiKey, apiKeySource] = first<string>([envKey, 'env'], [stored?.apiKey, 'profile']);
  const keyringAccount = apiKey === undefined ? stored?.keyringAccount : undefined;

  const envProduct = env.LOANCTL_PRODUCT_ID ? positiveInt(env.LOANCTL_PRODUCT_ID, 'LOANCTL_PRODUCT_ID') : undefined;
  const [productId, productIdSource] = first<number>([envProduct, 'env'], [stored?.productId, 'profile']);

  return {
    profile,
    baseUrl,
    baseUrlSource,
    apiKey,
    apiKeySource: keyringAccount === undefined ? apiKeySource : 'profile',
    keyringAccount,
    productId,
    productIdSource,
    orgId: stored?.orgId,
    dashboardUrl: stored?.dashboardUrl,
    timeoutMs: timeoutMs(globals.timeout),
    debug: Boolean(globals.debug) || env.LOANCTL_DEBUG === '1',
    dryRun: Boolean(globals.dryRun),
  };
}

function first<T>(...candidates: [T | undefined, Source][]): [T | undefined, Source | undefined] {
  for (const [value, source] of candidates) if (value !== undefined) return [value, source];
  return [undefined, undefined];
}

export function timeoutMs(value: string | number | undefined): number {
  if (value === undefined) return DEFAULT_TIMEOUT_SECONDS * 1000;
  return parseDuration(String(value), '--timeout');
}

export function positiveInt(value: string, name: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(`${name}: "${value}" is not a whole number above 0.`);
  }
  return n;
}

/** A key as it may be shown: `sk_live_…abcd` (last 4 at most) for long keys, else `********`. */
export function redactKey(key: string | undefined): string {
  if (!key) return '';
  if (key.length < 16) return '********';
  const prefix = /^[A-Za-z]{1,8}_(?:[A-Za-z]{1,8}_)?/.exec(key)?.[0] ?? '';
  return `${prefix}…${key.slice(-4)}`;
}

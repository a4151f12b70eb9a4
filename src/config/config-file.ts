/**
 * Reading `config.json` (./store.ts writes it): the whole file is checked before anything of it is
 * believed, and a file loanctl cannot read whole stops the command with one line naming the
 * field and the fix — never read in part, since the next write would drop what was skipped.
 */
import { UsageError } from '../errors.js';
import { readRegularFile } from './locked-write.js';
import type { ConfigData, Profile } from './store.js';

/** The config file's content, or undefined when there is none yet. */
export function readConfigFile(path: string): ConfigData | undefined {
  const text = readRegularFile(path, 'the config file');
  return text === undefined ? undefined : parseConfig(text, path);
}

/** What each field of a profile must be; a field not named here is kept as it is. */
const PROFILE_FIELDS: Record<
  string,
  { test: (value: unknown) => boolean; is: string; example: string; secret?: boolean }
> = {
  baseUrl: { test: (value) => typeof value === 'string', is: 'text', example: '"https://api.example.com"' },
  apiKey: { test: (value) => typeof value === 'string', is: 'text', example: '"sk_live_…"', secret: true },
  keyringAccount: { test: (value) => typeof value === 'string', is: 'text', example: '"prod"' },
  productId: { test: positiveWhole, is: 'a whole number', example: '3' },
  orgId: { test: positiveWhole, is: 'a whole number', example: '7' },
  dashboardUrl: {
    test: (value) => typeof value === 'string',
    is: 'text',
    example: '"https://lender.example.com/loans/{id}"',
  },
  csvBom: { test: (value) => typeof value === 'boolean', is: 'true or false', example: 'true' },
};

function positiveWhole(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/**
 * The whole file, or a UsageError naming the first thing in it that is not what loanctl writes.
 * A file loanctl cannot read whole is never rewritten: a profile skipped here would be dropped,
 * with its key, by the next write. Fields and top-level keys it does not know
 * are kept as they are.
 */
function parseConfig(text: string, path: string): ConfigData {
  const fix = `Fix it in ${path} (loanctl will not rewrite a file it cannot read whole), or move the file away and add your profiles again.`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`The config file ${path} is not valid JSON.`, fix);
  }
  if (!isObject(parsed)) {
    throw new UsageError(`The config file ${path} is not a loanctl config (expected a JSON object).`, fix);
  }
  if (parsed.current !== undefined && typeof parsed.current !== 'string') {
    throw new UsageError(
      `In the config file ${path}, "current" is ${describe(parsed.current)}, not a profile name.`,
      fix,
    );
  }
  const profiles = parsed.profiles ?? {};
  if (!isObject(profiles)) {
    throw new UsageError(`In the config file ${path}, "profiles" is ${describe(profiles)}, not an object.`, fix);
  }
  for (const [name, profile] of Object.entries(profiles)) checkProfile(name, profile, path, fix);
  return { ...parsed, profiles: profiles as Record<string, Profile> } as ConfigData;
}

function checkProfile(name: string, profile: unknown, path: string, fix: string): void {
  const where = `In the config file ${path}, profile "${name}"`;
  if (!isObject(profile)) throw new UsageError(`${where} is ${describe(profile)}, not an object.`, fix);
  for (const [field, rule] of Object.entries(PROFILE_FIELDS)) {
    const value = profile[field];
    if (value === undefined || rule.test(value)) continue;
    throw new UsageError(
      `${where} has "${field}": ${rule.secret ? `a ${kindOfValue(value)}` : describe(value)}, which must be ${rule.is} (e.g. "${field}": ${rule.example}).`,
      fix,
    );
  }
  if (profile.baseUrl === undefined) throw new UsageError(`${where} has no "baseUrl".`, fix);
  if (profile.apiKey === undefined && profile.keyringAccount === undefined) {
    throw new UsageError(
      `${where} has neither "apiKey" nor "keyringAccount": loanctl cannot tell where its key is.`,
      fix,
    );
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A secret's kind only (`number`, `object`…): its value is never printed. */
function kindOfValue(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** A value as the file has it, short: `"3"`, `8080`, `null`, `an array`. */
function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (isObject(value)) return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

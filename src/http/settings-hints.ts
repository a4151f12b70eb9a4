/**
 * Where this run's base URL and key came from, in the words an error hint needs to point the
 * operator at the setting to fix.
 */

import type { Settings } from '../config/settings.js';

export function describeBaseUrl(settings: Settings): string {
  const url = settings.baseUrl ?? 'none';
  switch (settings.baseUrlSource) {
    case 'flag':
      return `--base-url ${url}`;
    case 'env':
      return `LOANCTL_BASE_URL=${url}`;
    case 'profile':
      return `${url} from profile "${settings.profile?.name}"`;
    default:
      return url;
  }
}

export function authHint(settings: Settings): string {
  if (settings.apiKeySource === 'env') return 'Check the key in LOANCTL_API_KEY.';
  const name = settings.profile?.name ?? 'NAME';
  return `Check the key of profile "${name}", or set it again: loanctl profile add ${name} --base-url URL --api-key-stdin`;
}

/**
 * The global flags a check command needs to reach the same API as this run: those given on the
 * command line (the environment and the current profile carry over by themselves).
 */
export function globalFlags(settings: Settings): string[] {
  const flags: string[] = [];
  if (settings.profile?.source === 'flag') flags.push('--profile', settings.profile.name);
  if (settings.baseUrlSource === 'flag' && settings.baseUrl) flags.push('--base-url', settings.baseUrl);
  return flags;
}

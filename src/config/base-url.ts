/**
 * Base URL rules (docs/guide.md#network, "Base URL"): https, or plain http only to a loopback host
 * (127.0.0.0/8, localhost, ::1), since the API key travels in every request's headers.
 */
import { UsageError } from '../errors.js';

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  // Only `localhost` itself: names under .localhost are resolved through DNS on many systems, so
  // a DNS answer could send the key in clear to a remote host.
  if (host === 'localhost') return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  if (/^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Checks a base URL and returns it without a trailing slash or a trailing `/api/v1`, or throws a
 * UsageError saying why. The API's paths all start with `/api/v1` (src/contract/operations.ts), and
 * people copy the base URL from the API's docs with it: `https://host/api/v1` means `https://host`,
 * never requests to `/api/v1/api/v1/…`.
 */
export function checkBaseUrl(value: string, source = '--base-url'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${source}: "${value}" is not a URL.`, 'Give the API root, e.g. https://api.example.com');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`${source}: "${value}" must start with https://.`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UsageError(
      `${source}: plain http:// is refused for ${url.hostname}: the API key would cross the network unencrypted.`,
      `Use https://${url.host}${url.pathname === '/' ? '' : url.pathname} (http:// is allowed only for localhost, 127.0.0.0/8 and ::1).`,
    );
  }
  if (url.username || url.password) {
    throw new UsageError(`${source}: the URL must not contain a user name or password.`);
  }
  if (url.search || url.hash) {
    throw new UsageError(`${source}: the URL must not contain a query or fragment.`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '').replace(/(\/api\/v1)+$/i, '');
}

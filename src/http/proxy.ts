/**
 * Which proxy a request goes through, from the environment as curl reads it (docs/guide.md#network),
 * how it is reached on this Node, and the shape of a proxy's errors (./transport.ts attaches them,
 * ./failure.ts words them).
 *
 * - `https_proxy`/`HTTPS_PROXY` for https:// URLs, `http_proxy`/`HTTP_PROXY` for http:// ones; the
 *   lower-case name wins when both are set (curl, Node, Python), an empty value is unset. A proxy
 *   without a scheme is http://; only http:// and https:// proxies are supported.
 * - `no_proxy`/`NO_PROXY` (lower case wins): a comma-separated list of `*` (no proxy at all), host
 *   names (`example.com`, `.example.com` and `*.example.com` all match the name and every name under
 *   it), IP addresses, IPv4/IPv6 CIDR ranges (`10.0.0.0/8`), each optionally with `:port`. Case
 *   and spaces around the entries are ignored.
 * - A loopback host (localhost, 127.0.0.0/8, ::1) is never proxied, whatever the variables say: a
 *   corporate proxy cannot reach the operator's own machine (the sandbox), and plain http:// is
 *   allowed only there because the key then never crosses the network in clear (../config/base-url.ts).
 */
import type { ClientRequest } from 'node:http';
import { isLoopbackHost } from '../config/base-url.js';

export type Env = Record<string, string | undefined>;

export interface ProxyChoice {
  /** The proxy's URL, credentials included: for the connection only, never for a message. */
  url: URL;
  /** The variable it came from, as it is spelled in the environment (`HTTPS_PROXY`, `https_proxy`). */
  variable: string;
  /** How messages name it: `host:port (HTTPS_PROXY)`, never the credentials. */
  label: string;
}

/** The error code of a proxy variable loanctl cannot use (a SOCKS proxy, a value that is no URL). */
export const PROXY_UNUSABLE = 'PROXY_UNUSABLE';

/** The proxy for `target`, or undefined to connect directly. Throws PROXY_UNUSABLE for a bad value. */
export function proxyFor(target: URL, env: Env): ProxyChoice | undefined {
  const scheme = target.protocol === 'https:' ? 'https' : 'http';
  const variable = firstSet(env, `${scheme}_proxy`, `${scheme.toUpperCase()}_PROXY`);
  if (!variable) return undefined;
  if (isLoopbackHost(target.hostname)) return undefined;
  const noProxy = firstSet(env, 'no_proxy', 'NO_PROXY');
  if (noProxy && bypasses(env[noProxy] as string, target)) return undefined;
  const url = parseProxyUrl(env[variable] as string, variable);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return { url, variable, label: `${url.hostname}:${port} (${variable})` };
}

function firstSet(env: Env, ...names: string[]): string | undefined {
  return names.find((name) => (env[name] ?? '').trim() !== '');
}

function parseProxyUrl(value: string, variable: string): URL {
  const text = value.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    throw unusable(`${variable} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw unusable(
      `${variable} names a ${url.protocol.slice(0, -1)} proxy; loanctl can use only http:// and https:// proxies`,
    );
  }
  return url;
}

function unusable(message: string): Error {
  return Object.assign(new Error(message), { code: PROXY_UNUSABLE });
}

/** Whether a NO_PROXY list sends `target` directly. */
export function bypasses(noProxy: string, target: URL): boolean {
  const host = bare(target.hostname);
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    const { name, entryPort } = splitPort(entry);
    if (entryPort && entryPort !== port) continue;
    if (matchesHost(name, host)) return true;
  }
  return false;
}

function splitPort(entry: string): { name: string; entryPort: string | undefined } {
  // [v6]:port, v4:port, name:port; a bare IPv6 address has colons of its own.
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { name: bracketed[1] as string, entryPort: bracketed[2] };
  const withPort = /^([^:]+):(\d+)$/.exec(entry);
  if (withPort) return { name: withPort[1] as string, entryPort: withPort[2] };
  return { name: entry, entryPort: undefined };
}

function matchesHost(name: string, host: string): boolean {
  const { isIP } = process.getBuiltinModule('node:net');
  if (name.includes('/')) return inRange(name, host);
  if (isIP(name) || isIP(host)) return name === host;
  const domain = name.replace(/^\*?\./, '');
  return host === domain || host.endsWith(`.${domain}`);
}

function inRange(cidr: string, host: string): boolean {
  const { BlockList, isIP } = process.getBuiltinModule('node:net');
  const [network, bits] = cidr.split('/');
  const family = isIP(network ?? '');
  if (!family || family !== isIP(host) || !/^\d+$/.test(bits ?? '')) return false;
  const list = new BlockList();
  const type = family === 4 ? 'ipv4' : 'ipv6';
  try {
    list.addSubnet(network as string, Number(bits), type);
  } catch {
    return false;
  }
  return list.check(host, type);
}

function bare(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

/**
 * Whether this Node's http/https Agents take a `proxyEnv` option (v24.5.0 and v22.21.0 on; Node 23
 * never had it). Where they do, Node opens the proxy connection and the CONNECT tunnel itself;
 * older Nodes of the range loanctl supports (22.13 to 22.20) load https-proxy-agent instead.
 */
export function nodeHasProxyEnv(version = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major === 22) return minor >= 21;
  if (major === 24) return minor >= 5;
  return major >= 25;
}

/** The code of an error from the proxy: it refused the CONNECT (statusCode) or the tunnel failed. */
export const PROXY_TUNNEL = 'ERR_PROXY_TUNNEL';

/** What every error of a proxied request carries as `proxy`: how to name the proxy, never its credentials. */
export interface ProxyLabel {
  /** `host:port (HTTPS_PROXY)` */
  label: string;
  /** The variable it came from, as spelled in the environment. */
  variable: string;
}

export function labelOf({ label, variable }: ProxyChoice): ProxyLabel {
  return { label, variable };
}

/**
 * https-proxy-agent hands a proxy's refusal (407, 403, 502…) on as if the API had answered it; it
 * is a failure to connect, with the code Node's own proxy support gives it.
 */
export function refuseFailedTunnel(request: ClientRequest, fail: (error: Error) => void): void {
  request.once('proxyConnect', (connect: { statusCode: number; statusText?: string }) => {
    if (connect.statusCode === 200) return;
    const status = `${connect.statusCode} ${connect.statusText ?? ''}`.trim();
    const error = new Error(`the proxy refused the tunnel: HTTP ${status}`);
    fail(Object.assign(error, { code: PROXY_TUNNEL, statusCode: connect.statusCode }));
  });
}

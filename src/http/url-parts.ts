/**
 * A URL's parts as node:http takes them (protocol, host, port, path, credentials), from Node's own
 * `urlToHttpOptions`, kept for the last URL asked. Every row of a bulk run goes to the same URL,
 * and reading its parts cost ~2 µs a request (bench/README.md, "Bulk share", round seven).
 */
import type { RequestOptions } from 'node:http';
import { urlToHttpOptions } from 'node:url';

let last: { href: string; parts: RequestOptions } | undefined;

/** The parts of `url`; the caller spreads them into its request's options and changes nothing in them. */
export function partsOf(url: URL): RequestOptions {
  if (last?.href !== url.href) last = { href: url.href, parts: requestParts(url) };
  return last.parts;
}

/**
 * Only what node:http reads: it copies the options twice a request (ClientRequest, then the
 * Agent) into objects without a prototype, and urlToHttpOptions' href, pathname, search and hash
 * made those copies ~0.8 µs slower. A plain object: Node's has no prototype, and spreading that
 * kind cost ~0.9 µs more.
 */
function requestParts(url: URL): RequestOptions {
  const { protocol, hostname, port, path, auth } = urlToHttpOptions(url);
  return auth === undefined ? { protocol, hostname, port, path } : { protocol, hostname, port, path, auth };
}

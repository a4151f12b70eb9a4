/**
 * A URL's parts as node:http takes them (host, port, path, credentials): Node's own
 * `urlToHttpOptions`, kept for the last URL asked. Every row of a bulk run goes to the same URL,
 * and reading its parts cost ~2 µs a request (bench/README.md, "Bulk share", round seven).
 */
import type { RequestOptions } from 'node:http';
import { urlToHttpOptions } from 'node:url';

let last: { href: string; parts: RequestOptions } | undefined;

/** The parts of `url`; the caller spreads them into its request's options and changes nothing in them. */
export function partsOf(url: URL): RequestOptions {
  // Copied into a plain object: Node's has no prototype, and spreading that kind cost ~0.9 µs.
  if (last?.href !== url.href) last = { href: url.href, parts: { ...urlToHttpOptions(url) } };
  return last.parts;
}

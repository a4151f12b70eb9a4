/**
 * A URL's parts as node:http takes them (protocol, host, port, path, credentials), from Node's own
 * `urlToHttpOptions`. Only what node:http reads: it copies the options twice a request
 * (ClientRequest, then the Agent) into objects without a prototype, and urlToHttpOptions' href,
 * pathname, search and hash made those copies ~0.8 µs slower. A plain object: Node's has no
 * prototype, and spreading that kind cost ~0.9 µs more (bench/README.md, "Bulk share", round seven).
 */
import type { RequestOptions } from 'node:http';
import { urlToHttpOptions } from 'node:url';

/** The parts of `url`, a new object each call: the caller spreads them into its request's options. */
export function partsOf(url: URL): RequestOptions {
  const { protocol, hostname, port, path, auth } = urlToHttpOptions(url);
  return auth === undefined ? { protocol, hostname, port, path } : { protocol, hostname, port, path, auth };
}

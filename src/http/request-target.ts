import type { RequestOptions } from 'node:http';

/**
 * What node:http reads of a URL, as its own `urlToHttpOptions` gives it. Handing it the URL made it
 * copy every field of the URL and merge them into the options, on each request of a bulk run.
 */
export function requestTarget(url: URL): RequestOptions {
  const { hostname, port, username, password } = url;
  const options: RequestOptions = {
    protocol: url.protocol,
    // An IPv6 literal is written in brackets in a URL, and without them to connect.
    hostname: hostname.startsWith('[') ? hostname.slice(1, -1) : hostname,
    path: `${url.pathname}${url.search}`,
  };
  if (port !== '') options.port = Number(port);
  if (username || password) options.auth = `${decodeURIComponent(username)}:${decodeURIComponent(password)}`;
  return options;
}

/**
 * The two parts of undici the client uses, the keep-alive `Agent` and `request`, imported from
 * their own files. The package's index loads all of undici (fetch, cookies, WebSocket, HTTP/2
 * helpers, caches, interceptors, the mock agent; its cookie code even reads `globalThis.Headers`,
 * which loads Node's own copy of undici too): about a third of a network command's start-up
 * (bench/README.md). These are undici's own files, so timeouts, keep-alive and error codes are the
 * package's; a dispatcher passed in (a test's MockAgent) is sent through exactly as before.
 */
import type { Agent as AgentClass, Dispatcher } from 'undici';
import requestApi from 'undici/lib/api/api-request.js';
import util from 'undici/lib/core/util.js';
import AgentImpl from 'undici/lib/dispatcher/agent.js';

export type { Dispatcher } from 'undici';
export type Agent = AgentClass;
export const Agent: typeof AgentClass = AgentImpl;

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & {
  method: Dispatcher.HttpMethod;
  dispatcher: Dispatcher;
};

/**
 * undici's `request(url, options)` as its index.js defines it, for a URL object and a dispatcher
 * (the client always passes one): the URL checked by undici's own parser, split into origin and
 * path, and handed to the dispatcher's `request`.
 */
export function request(url: URL, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const parsed = util.parseURL(url);
  return requestApi.call(options.dispatcher, {
    ...options,
    origin: parsed.origin,
    path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname,
    method: options.method || (options.body ? 'PUT' : 'GET'),
  });
}

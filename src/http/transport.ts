/**
 * How a request travels: Node's own `node:http` / `node:https` with one keep-alive Agent per
 * protocol, shared by every call of a run (a bulk run shares it between its workers).
 *
 * Why not undici: loading undici's client (about 40 modules and its llhttp wasm parser) was the
 * largest part of a network command's start-up, ~17 ms of a ~25 ms `node -e 0` on the machine of
 * bench/README.md, where issue #5 allows 2.5 x in all; node:http is part of Node and loads in ~1 ms.
 *
 * What the client above relies on, and this module guarantees:
 * - `signal` ends the exchange whenever it aborts (the client's whole-exchange timeout, Ctrl-C);
 *   the request then rejects with Node's AbortError.
 * - A connection that is not made within `connectTimeoutMs` rejects with code
 *   `CONNECT_TIMEOUT` (provably never sent, so safe to repeat). Other failures keep Node's own
 *   codes (ECONNREFUSED, ENOTFOUND, ECONNRESET…).
 * - The reply body is read whole and decoded as UTF-8 (a byte order mark dropped).
 */
import type { Agent, ClientRequest, IncomingHttpHeaders, IncomingMessage, RequestOptions } from 'node:http';

export interface Exchange {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortSignal;
}

export interface Reply {
  statusCode: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface Transport {
  send(exchange: Exchange): Promise<Reply>;
  /**
   * Closes the pool. By default after the requests still out have settled; with `abort`, at once
   * (their sockets are destroyed, so they reject).
   */
  close(options?: { abort?: boolean }): Promise<void>;
}

export interface TransportOptions {
  /** Sockets per origin at most (opened only as needed). */
  connections: number;
  connectTimeoutMs: number;
}

/** The error code of a connection not made in time. */
export const CONNECT_TIMEOUT = 'CONNECT_TIMEOUT';

/** What is used of node:http and node:https, which have the same shape for it. */
type HttpModule = Pick<typeof import('node:http'), 'request' | 'Agent'>;

export function createTransport(options: TransportOptions): Transport {
  const agents = new Map<string, { module: HttpModule; agent: Agent }>();
  const inFlight = new Set<Promise<unknown>>();

  const pool = (protocol: string) => {
    let entry = agents.get(protocol);
    if (!entry) {
      // node:https loads TLS and crypto: only for an https base URL, never for the sandbox.
      const module: HttpModule = process.getBuiltinModule(protocol === 'https:' ? 'node:https' : 'node:http');
      entry = { module, agent: new module.Agent({ keepAlive: true, maxSockets: options.connections }) };
      agents.set(protocol, entry);
    }
    return entry;
  };

  return {
    send(exchange) {
      const sent = exchangeOnce(exchange, pool(exchange.url.protocol), options.connectTimeoutMs);
      inFlight.add(sent);
      const forget = () => inFlight.delete(sent);
      sent.then(forget, forget);
      return sent;
    },
    async close(closeOptions = {}) {
      if (!closeOptions.abort) await Promise.allSettled([...inFlight]);
      for (const { agent } of agents.values()) agent.destroy();
      agents.clear();
    },
  };
}

function exchangeOnce(
  exchange: Exchange,
  { module, agent }: { module: HttpModule; agent: Agent },
  connectTimeoutMs: number,
): Promise<Reply> {
  return new Promise<Reply>((resolve, reject) => {
    const requestOptions: RequestOptions = {
      method: exchange.method,
      headers: exchange.headers,
      agent,
      signal: exchange.signal,
    };
    const request = module.request(exchange.url, requestOptions, (response) => {
      readText(response).then(
        (text) => resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, text }),
        reject,
      );
    });
    request.on('error', reject);
    limitConnect(request, connectTimeoutMs);
    request.end(exchange.body);
  });
}

/** Destroys the request with CONNECT_TIMEOUT if its socket is still connecting after `ms`. */
function limitConnect(request: ClientRequest, ms: number): void {
  request.once('socket', (socket) => {
    if (!socket.connecting) return; // a kept-alive socket, already connected
    const timer = setTimeout(() => {
      const error = Object.assign(new Error(`connect timed out after ${ms} ms`), { code: CONNECT_TIMEOUT });
      request.destroy(error);
    }, ms);
    const clear = () => clearTimeout(timer);
    socket.once('connect', clear);
    socket.once('close', clear);
  });
}

function readText(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    });
    // The socket closed before the whole body arrived (`aborted`), or the signal fired.
    response.on('error', reject);
    response.on('aborted', () => reject(Object.assign(new Error('the reply was cut off'), { code: 'ECONNRESET' })));
  });
}

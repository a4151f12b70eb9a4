/**
 * How a request travels: Node's own `node:http` / `node:https` with one keep-alive Agent per
 * protocol, shared by every call of a run (a bulk run shares it between its workers).
 *
 * Why not undici: loading undici's client (about 40 modules and its llhttp wasm parser) was the
 * largest part of a network command's start-up, ~17 ms where `node -e 0` takes ~25 ms and issue
 * #5 allows the whole command 2.5 x that (bench/README.md); node:http is part of Node and loads
 * in ~3 ms.
 *
 * What the client above relies on, and this module guarantees:
 * - An exchange not complete, headers and body, within its `timeoutMs` rejects with an error
 *   named `TimeoutError` (a timer of its own: `AbortSignal.timeout` with `AbortSignal.any` per
 *   request cost a bulk run a tenth of its time, most of it in the garbage collector).
 * - A connection that is not made within `connectTimeoutMs` (TCP, and TLS for https) rejects
 *   with code `CONNECT_TIMEOUT` (provably never sent, so safe to repeat). Other failures keep
 *   Node's own codes (ECONNREFUSED, ENOTFOUND, ECONNRESET…).
 * - The reply body is read whole and decoded as UTF-8 (a byte order mark dropped), up to
 *   `maxReplyBytes` (default MAX_REPLY_BYTES): a larger body, announced by its Content-Length or
 *   found while reading, rejects with code `REPLY_TOO_LARGE` and is not read further (the socket is
 *   dropped), so memory stays bounded whatever the server sends. A body that never ends is cut by
 *   this bound or by `timeoutMs`, whichever comes first.
 */
import type { Agent, ClientRequest, IncomingHttpHeaders, IncomingMessage, RequestOptions } from 'node:http';

export interface Exchange {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | undefined;
  /** The whole exchange, from the first byte sent to the last received. */
  timeoutMs: number;
}

export interface Reply {
  statusCode: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface Transport {
  send(exchange: Exchange): Promise<Reply>;
  /**
   * Closes the pool. By default after the requests still out have settled; with `abort`, at once:
   * every request not settled, sent or still waiting for a socket, rejects with an AbortError.
   */
  close(options?: { abort?: boolean }): Promise<void>;
}

export interface TransportOptions {
  /** Sockets per origin at most (opened only as needed). */
  connections: number;
  /** Time to open a connection: TCP, and the TLS handshake for https. */
  connectTimeoutMs: number;
  /** How long an idle kept-alive socket stays open; default IDLE_SOCKET_MS. */
  idleSocketMs?: number;
  /** The largest reply body read; default MAX_REPLY_BYTES (tests set a smaller one). */
  maxReplyBytes?: number;
}

/** The largest reply body loanctl reads (README, "Network behaviour"). */
export const MAX_REPLY_BYTES = 32 * 1024 * 1024;

/** The error code of a reply body larger than the bound. */
export const REPLY_TOO_LARGE = 'REPLY_TOO_LARGE';

/** The error code of a connection not made in time. */
export const CONNECT_TIMEOUT = 'CONNECT_TIMEOUT';

/**
 * An idle kept-alive socket is closed after this long (or the server's `Keep-Alive: timeout=`
 * hint, less a second, if shorter). Servers close idle connections too, often without a hint
 * (nginx, load balancers); a request written on a socket the server is just closing fails with
 * ECONNRESET, and a POST is then not repeated. Closing ours first makes that rare.
 */
const IDLE_SOCKET_MS = 10_000;

/** What is used of node:http and node:https, which have the same shape for it. */
type HttpModule = Pick<typeof import('node:http'), 'request' | 'Agent'>;

interface Pool {
  module: HttpModule;
  agent: Agent;
  secure: boolean;
}

export function createTransport(options: TransportOptions): Transport {
  const pools = new Map<string, Pool>();
  /** Every request not yet settled, with what ends it at once. */
  const inFlight = new Map<Promise<unknown>, ClientRequest>();

  const pool = (protocol: string): Pool => {
    let entry = pools.get(protocol);
    if (!entry) {
      const secure = protocol === 'https:';
      // node:https loads TLS and crypto: only for an https base URL, never for the sandbox.
      const module: HttpModule = process.getBuiltinModule(secure ? 'node:https' : 'node:http');
      const agent = new module.Agent({
        keepAlive: true,
        maxSockets: options.connections,
        timeout: options.idleSocketMs ?? IDLE_SOCKET_MS,
      });
      entry = { module, agent, secure };
      pools.set(protocol, entry);
    }
    return entry;
  };

  return {
    send(exchange) {
      const { reply, request } = exchangeOnce(exchange, pool(exchange.url.protocol), options);
      inFlight.set(reply, request);
      const forget = () => inFlight.delete(reply);
      reply.then(forget, forget);
      return reply;
    },
    async close(closeOptions = {}) {
      if (closeOptions.abort) {
        // Requests still waiting for a socket too, which destroying the agents' sockets misses.
        for (const request of inFlight.values()) request.destroy(abandonedError());
      }
      await Promise.allSettled([...inFlight.keys()]);
      for (const { agent } of pools.values()) agent.destroy();
      pools.clear();
    },
  };
}

function exchangeOnce(exchange: Exchange, pool: Pool, options: TransportOptions) {
  let request!: ClientRequest;
  const reply = new Promise<Reply>((resolve, reject) => {
    const requestOptions: RequestOptions = { method: exchange.method, headers: exchange.headers, agent: pool.agent };
    request = pool.module.request(exchange.url, requestOptions, (response) => {
      readText(response, options.maxReplyBytes ?? MAX_REPLY_BYTES).then(
        (text) => settle(() => resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, text })),
        (error: unknown) => settle(() => reject(error)),
      );
    });
    const timer = setTimeout(() => request.destroy(timeoutError(exchange.timeoutMs)), exchange.timeoutMs);
    const settle = (done: () => void) => {
      clearTimeout(timer);
      done();
    };
    request.on('error', (error) => settle(() => reject(error)));
    limitConnect(request, options.connectTimeoutMs, pool.secure);
    request.end(exchange.body);
  });
  return { reply, request };
}

function timeoutError(ms: number): Error {
  return Object.assign(new Error(`no complete reply within ${ms} ms`), { name: 'TimeoutError' });
}

/**
 * Destroys the request with CONNECT_TIMEOUT if its connection is not ready after `ms`: connected,
 * and for https through the TLS handshake (a server that accepts and never answers TLS counts).
 */
function limitConnect(request: ClientRequest, ms: number, secure: boolean): void {
  request.once('socket', (socket) => {
    // A kept-alive socket is connected, and through its handshake, already.
    if (request.reusedSocket || (!secure && !socket.connecting)) return;
    const timer = setTimeout(() => {
      const error = Object.assign(new Error(`connect timed out after ${ms} ms`), { code: CONNECT_TIMEOUT });
      request.destroy(error);
    }, ms);
    const clear = () => clearTimeout(timer);
    socket.once(secure ? 'secureConnect' : 'connect', clear);
    socket.once('close', clear);
  });
}

function abandonedError(): Error {
  return Object.assign(new Error('the request was abandoned'), { name: 'AbortError', code: 'ABORT_ERR' });
}

function readText(response: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    const refuse = () => {
      chunks = [];
      reject(
        Object.assign(new Error(`the reply is larger than ${maxBytes} bytes`), { code: REPLY_TOO_LARGE, maxBytes }),
      );
      response.destroy();
    };
    if (Number(response.headers['content-length']) > maxBytes) return refuse();
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) refuse();
      else chunks.push(chunk);
    });
    response.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    });
    // The socket closed before the whole body arrived (ECONNRESET), or the timer fired.
    response.on('error', reject);
  });
}

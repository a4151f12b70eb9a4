/**
 * How a request travels: Node's own `node:http` / `node:https` with one keep-alive Agent per
 * protocol, shared by every call of a run (a bulk run shares it between its workers).
 *
 * Why not undici: loading its client (~40 modules and its llhttp wasm parser) took ~17 ms of a
 * network command's start-up, where `node -e 0` takes ~25 ms (bench/README.md); node:http is part
 * of Node and loads in ~3 ms.
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
 * - Through the proxy the environment names for the URL (./proxy.ts): Node's own proxy support
 *   (Agent `proxyEnv`) where this Node has it, else https-proxy-agent, loaded only then. A command
 *   with no proxy set never loads either. The connect timeout then covers the proxy connection and
 *   its CONNECT tunnel, and every error of a proxied request carries `proxy`, the proxy's label
 *   (host:port and variable, never credentials), so the message can name it.
 * - Both timeout errors carry `phase` and `limitMs` (./bounds.ts): which step never finished —
 *   connect, the proxy's answer to CONNECT, TLS (in the tunnel too), headers, body.
 * - `close` destroys every socket the pool opened, one still opening its tunnel included: nothing
 *   keeps the process alive after its command (a proxy answering CONNECT, then never TLS, did).
 */
import type { Agent, ClientRequest, IncomingHttpHeaders, RequestOptions } from 'node:http';
import type { Socket } from 'node:net';
import { urlToHttpOptions } from 'node:url';
import {
  connectTimeoutError,
  limitConnect,
  MAX_REPLY_BYTES,
  type Phase,
  readText,
  ready,
  timeoutError,
} from './bounds.js';
import { type Env, labelOf, nodeHasProxyEnv, type ProxyChoice, proxyFor, refuseFailedTunnel } from './proxy.js';
import { tunnelPhase, watchTunnel } from './tunnel-phase.js';

export interface Exchange {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | undefined;
  /** The whole exchange, from the first byte sent to the last received. */
  timeoutMs: number;
  /** The connection's own bound, if shorter than the pool's `connectTimeoutMs` (what is left of a deadline). */
  connectTimeoutMs?: number;
}

interface Reply {
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
  /** Where the proxy variables are read; default process.env. */
  env?: Env;
  /**
   * How a proxy is reached: Node's own `proxyEnv` agents, or https-proxy-agent. Default: Node's own
   * where this Node has them (./proxy.ts, nodeHasProxyEnv); tests force the library on Node 24.
   */
  proxyMechanism?: ProxyMechanism;
}

export type ProxyMechanism = 'node' | 'library';

export { CONNECT_TIMEOUT, type Phase, REPLY_TOO_LARGE } from './bounds.js';

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
  proxy: ProxyChoice | undefined;
  /** Destroys the proxy connections still opening their tunnel, which the agent does not track. */
  stop?: AbortController;
  /**
   * Every socket the agent opened that is not closed yet, and the exchange it was opened for.
   * A connection still being made (a tunnel whose TLS handshake never ends) is in no list of the
   * agent's: without this, `close` left it open and the process never exited.
   */
  opened: Map<Socket, object | undefined>;
}

export function createTransport(options: TransportOptions): Transport {
  /** One pool per protocol and proxy; `routes` remembers each origin's, so NO_PROXY is read once. */
  const pools = new Map<string, Pool | Promise<Pool>>();
  const routes = new Map<string, Pool | Promise<Pool>>();
  const inFlight = new Set<{ reply: Promise<Reply>; fail: (error: Error) => void }>();
  let closed = false;

  const poolFor = (url: URL): Pool | Promise<Pool> => {
    const origin = `${url.protocol}//${url.host}`;
    let route = routes.get(origin);
    if (!route) {
      const proxy = proxyFor(url, options.env ?? process.env);
      const key = `${url.protocol} ${proxy?.url.href ?? 'direct'}`;
      route = pools.get(key) ?? makePool(url.protocol === 'https:', proxy, options);
      pools.set(key, route);
      routes.set(origin, route);
    }
    return route;
  };

  const start = (exchange: Exchange, pool: Pool): Promise<Reply> => {
    if (closed) return Promise.reject(abandonedError());
    const entry = exchangeOnce(exchange, pool, options);
    inFlight.add(entry);
    const forget = () => inFlight.delete(entry);
    entry.reply.then(forget, forget);
    return entry.reply;
  };

  return {
    send(exchange) {
      let pool: Pool | Promise<Pool>;
      try {
        pool = poolFor(exchange.url);
      } catch (error) {
        return Promise.reject(error);
      }
      return pool instanceof Promise ? pool.then((ready) => start(exchange, ready)) : start(exchange, pool);
    },
    async close(closeOptions = {}) {
      if (closeOptions.abort) {
        closed = true;
        // Requests still waiting for a socket too, which destroying the agents' sockets misses.
        for (const { fail } of [...inFlight]) fail(abandonedError());
      }
      await Promise.allSettled([...inFlight].map(({ reply }) => reply));
      for (const settled of await Promise.allSettled(pools.values())) {
        if (settled.status !== 'fulfilled') continue;
        settled.value.stop?.abort();
        settled.value.agent.destroy();
        for (const socket of settled.value.opened.keys()) socket.destroy();
      }
      pools.clear();
      routes.clear();
    },
  };
}

function makePool(secure: boolean, proxy: ProxyChoice | undefined, options: TransportOptions): Pool | Promise<Pool> {
  // node:https loads TLS and crypto: only for an https base URL, never for the sandbox.
  const module: HttpModule = process.getBuiltinModule(secure ? 'node:https' : 'node:http');
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.connections,
    timeout: options.idleSocketMs ?? IDLE_SOCKET_MS,
  };
  const pool = { module, secure, proxy, opened: new Map<Socket, object | undefined>() };
  if (!proxy) return tracked({ ...pool, agent: new module.Agent(agentOptions) });
  if ((options.proxyMechanism ?? (nodeHasProxyEnv() ? 'node' : 'library')) === 'node') {
    const proxyEnv = { [secure ? 'HTTPS_PROXY' : 'HTTP_PROXY']: proxy.url.href };
    return tracked({ ...pool, agent: new module.Agent({ ...agentOptions, proxyEnv }) });
  }
  // It tunnels with CONNECT for http:// URLs too (those go to loopback hosts only, never proxied).
  // Its options go to net.connect as well: the signal ends a CONNECT left unanswered when the run
  // ends, which would otherwise keep the process alive until the proxy hangs up.
  const stop = new AbortController();
  return import('https-proxy-agent').then(({ HttpsProxyAgent }) => ({
    ...pool,
    stop,
    agent: new HttpsProxyAgent(proxy.url, { ...agentOptions, signal: stop.signal }),
  }));
}

/** The exchange whose request is being made: an agent opens a connection for it synchronously. */
let opening: object | undefined;

/**
 * Records every socket the agent opens in `pool.opened`, with the exchange it is opened for (see
 * Pool). For Node's own proxy support it is the socket to the proxy (./tunnel-phase.ts).
 */
function tracked(pool: Pool): Pool {
  const agent = pool.agent as Agent & { createConnection: (...args: unknown[]) => Socket };
  const create = agent.createConnection;
  agent.createConnection = function (this: Agent, ...args: unknown[]) {
    const socket = create.apply(this, args);
    pool.opened.set(socket, opening);
    socket.once('close', () => pool.opened.delete(socket));
    if (pool.proxy) watchTunnel(socket);
    return socket;
  };
  return pool;
}

function exchangeOnce(exchange: Exchange, pool: Pool, options: TransportOptions) {
  let fail!: (error: Error) => void;
  const connectMs = Math.min(options.connectTimeoutMs, exchange.connectTimeoutMs ?? Number.POSITIVE_INFINITY);
  const reply = new Promise<Reply>((resolve, reject) => {
    const requestOptions: RequestOptions = {
      ...urlToHttpOptions(exchange.url),
      method: exchange.method,
      headers: exchange.headers,
      agent: pool.agent,
    };
    // Node's own proxy support gives up on a tunnel after the request's `timeout` (else the agent's
    // idle timeout): the connect timeout, so no unanswered CONNECT outlives the run.
    if (pool.proxy) requestOptions.timeout = connectMs;
    let answered = false;
    let tunnelOpen = false;
    const token = {};
    opening = token;
    let request: ClientRequest;
    try {
      request = pool.module.request(requestOptions, (response) => {
        answered = true;
        readText(
          response,
          options.maxReplyBytes ?? MAX_REPLY_BYTES,
          (text) => settle(() => resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, text })),
          (error) => settle(() => reject(error)),
        );
      });
    } finally {
      opening = undefined;
    }
    let timer: NodeJS.Timeout | undefined;
    const settle = (done: () => void) => {
      clearTimeout(timer);
      done();
    };
    const rejectWith = (error: Error) =>
      settle(() => reject(pool.proxy ? Object.assign(error, { proxy: labelOf(pool.proxy) }) : error));
    /** Where the exchange is now (see Phase). */
    const phase = (): Phase => {
      if (answered) return 'body';
      const socket = request.socket;
      if (socket && (request.reusedSocket || ready(socket, pool.secure))) return 'headers';
      if (socket) return pool.proxy || !socket.connecting ? 'tls' : 'connect';
      if (!pool.proxy) return 'connect';
      // Before the socket is handed over: the tunnel is being opened.
      if (tunnelOpen) return 'tls';
      const toProxy = [...pool.opened].find(([, owner]) => owner === token)?.[0];
      return toProxy ? tunnelPhase(toProxy) : 'proxy';
    };
    // Rejects at once: a request still waiting for its socket (a proxy opening its tunnel, a full
    // pool) reports a destroy only when the socket comes, if ever; the connection opened for it
    // is destroyed too (a tunnel whose handshake never ends would otherwise stay open).
    fail = (error) => {
      rejectWith(error);
      request.destroy(error);
      for (const [socket, owner] of pool.opened) if (owner === token && !request.socket) socket.destroy();
    };
    request.on('error', rejectWith);
    if (pool.proxy) {
      refuseFailedTunnel(request, fail);
      request.once('proxyConnect', () => {
        tunnelOpen = true;
      });
    }
    // A kept-alive socket handed over at once is connected already: most requests need no connect timer.
    const connectTimedOut = (ms: number) => fail(connectTimeoutError(ms, phase()));
    if (!request.reusedSocket) limitConnect(request, connectMs, pool.secure, connectTimedOut);
    timer = setTimeout(() => fail(timeoutError(exchange.timeoutMs, phase())), exchange.timeoutMs);
    request.end(exchange.body);
  });
  return { reply, fail };
}

function abandonedError(): Error {
  return Object.assign(new Error('the request was abandoned'), { name: 'AbortError', code: 'ABORT_ERR' });
}

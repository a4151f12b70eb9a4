/**
 * Limits that protect the sandbox from a client that is slow, broken or greedy, and the replies it
 * gives them: every one the API's envelope, never node's bare `HTTP/1.1 400 Bad Request`, a reset
 * connection or Fastify's own JSON.
 *
 * - A request must arrive whole (headers and body) within `requestTimeoutMs`, its headers within
 *   `headersTimeoutMs` (also the first request of a connection that sends nothing): a client that
 *   trickles is answered 408 and its connection closed, so it cannot hold a stopping sandbox
 *   open. node checks these every `checkIntervalMs`.
 * - A connection idle between requests is closed after `keepAliveTimeoutMs`; one silent while its
 *   request is served, after `idleTimeoutMs`.
 * - At most `maxConnections` connections. One more makes room by closing the oldest connection
 *   that is not being served a request it sent whole (idle, or still trickling its request: it
 *   gets the 408 envelope); only when every one is being served is the newcomer's request
 *   answered with the 503 envelope (and `Retry-After`) and its connection closed. So idle and
 *   slow clients cannot starve others, and no client sees a reset.
 * - At most `maxInFlightPerConnection` requests of one connection waiting for their replies: a
 *   client that pipelines requests and never reads its replies makes node queue every reply in
 *   memory. One more is answered 429 (the envelope, `Retry-After`) and the connection closed
 *   after the replies before it.
 * - An Authorization header longer than LONGEST_AUTHORIZATION is answered 401 before anything
 *   else is done with the request: no body parsed, no key looked up.
 * - Header too large (431), malformed HTTP (400), an `Expect` other than `100-continue` (417),
 *   and a body whose Content-Type is not JSON (415) are answered with the envelope.
 */
import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyHttpOptions, FastifyInstance } from 'fastify';
import { BASE as DASHBOARD } from './dashboard/layout.js';
import { envelope, LONGEST_AUTHORIZATION, MESSAGES } from './envelope.js';

export interface Limits {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  idleTimeoutMs: number;
  maxConnections: number;
  maxInFlightPerConnection: number;
  checkIntervalMs: number;
}

/** A reply written outside Fastify (so outside its hooks), told to the request log. */
export interface RawReply {
  /** '-' where the request could not be read. */
  method: string;
  url: string;
  http: number;
  replyText: string;
}

export type RecordRaw = (reply: RawReply) => void;

export const DEFAULT_LIMITS: Limits = {
  requestTimeoutMs: 15_000,
  headersTimeoutMs: 5_000,
  // Fastify's default is 72 s: 512 connections left idle after one request locked everyone out that long.
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 60_000,
  maxConnections: 512,
  // Clients that pipeline send a few requests ahead; 500 connections of 200 unread requests each
  // had node hold 100,000 replies.
  maxInFlightPerConnection: 32,
  checkIntervalMs: 1_000,
};

/** The Fastify (and node:http) options that enforce `limits`. */
export function limitOptions(limits: Limits, record: RecordRaw): Partial<FastifyHttpOptions<Server>> {
  return {
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      requestTimeout: limits.requestTimeoutMs,
      // node refuses a headers timeout longer than the request timeout.
      headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    clientErrorHandler: (error, socket) => answerClientError(error, socket, record),
  };
}

/** What only the listening server has: the connection cap, `Expect`, and no text/plain bodies. */
export function installLimits(app: FastifyInstance, limits: Limits, record: RecordRaw): void {
  const sockets = openConnections(app);
  capConnections(app, sockets, limits, record);
  boundInFlight(app, limits);
  refuseOverlongCredentials(app);
  // node answers an unknown expectation itself, with a bare 417, unless someone listens.
  app.server.on('checkExpectation', (request, response) => {
    const body = envelopeText(
      `Unsupported "Expect: ${request.headers.expect}": send the request without it, or with "Expect: 100-continue"`,
    );
    response.writeHead(417, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
    response.end(body);
    record({ method: request.method ?? '-', url: request.url ?? '-', http: 417, replyText: body });
  });
  // Fastify parses text/plain bodies by default, and does not look at a GET's body at all: the
  // API takes JSON only, on every method.
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', (request, reply, done) => {
    // The dashboard's forms post form bodies: its own scope parses them (dashboard/index.ts).
    if (!carriesBody(request.raw) || isJson(request.headers['content-type']) || inDashboard(request.url)) return done();
    reply
      .code(415)
      .header('connection', 'close')
      .type('application/json; charset=utf-8')
      .send(envelopeText(MESSAGES.unsupportedContentType));
  });
  cutSlowRequestsOnClose(app, sockets, limits, record);
}

type ServerSocket = Socket & { _httpMessage?: ServerResponse | null; [OVER_CAP]?: true; [IN_FLIGHT]?: number };

/** The requests of a connection that have not had their replies yet. */
const IN_FLIGHT = Symbol('requests in flight');

/** Marks a connection that came over the cap while every other was being served. */
const OVER_CAP = Symbol('over the connection cap');

/** The server's open connections, oldest first (a Set keeps insertion order). */
function openConnections(app: FastifyInstance): Set<ServerSocket> {
  const sockets = new Set<ServerSocket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return sockets;
}

/** True while the connection is being served a request that arrived whole. */
function beingServed(socket: ServerSocket): boolean {
  return socket._httpMessage?.req?.complete === true;
}

/** The connection cap (see the top of this file); `sockets` must already count the newcomer. */
function capConnections(app: FastifyInstance, sockets: Set<ServerSocket>, limits: Limits, record: RecordRaw): void {
  app.server.on('connection', (newcomer: ServerSocket) => {
    if (sockets.size <= limits.maxConnections) return;
    for (const socket of sockets) {
      if (socket === newcomer || beingServed(socket)) continue;
      answerClientError(Object.assign(new Error('closed to make room'), { code: MADE_ROOM }), socket, record);
      return;
    }
    newcomer[OVER_CAP] = true;
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (!(request.raw.socket as ServerSocket)[OVER_CAP]) return done();
    reply
      .code(503)
      .header('connection', 'close')
      .header('retry-after', '1')
      .type('application/json; charset=utf-8')
      .send(
        envelopeText(`The sandbox is serving ${limits.maxConnections} connections, its most: try again in a moment`),
      );
  });
}

/** The cap on a connection's requests in flight (see the top of this file). */
function boundInFlight(app: FastifyInstance, limits: Limits): void {
  app.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket as ServerSocket;
    const inFlight = (socket[IN_FLIGHT] ?? 0) + 1;
    socket[IN_FLIGHT] = inFlight;
    reply.raw.once('close', () => {
      socket[IN_FLIGHT] = (socket[IN_FLIGHT] ?? 1) - 1;
    });
    if (inFlight <= limits.maxInFlightPerConnection) return done();
    reply
      .code(429)
      .header('connection', 'close')
      .header('retry-after', '1')
      .type('application/json; charset=utf-8')
      .send(
        envelopeText(
          `This connection has ${limits.maxInFlightPerConnection} requests waiting for their replies, its most: read the replies before sending more`,
        ),
      );
  });
}

function refuseOverlongCredentials(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const header = request.headers.authorization;
    if (header === undefined || header.length <= LONGEST_AUTHORIZATION) return done();
    reply
      .code(401)
      .header('connection', 'close')
      .type('application/json; charset=utf-8')
      .send(envelopeText(MESSAGES.keyTooLong));
  });
}

function carriesBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function inDashboard(url: string): boolean {
  return url === DASHBOARD || url.startsWith(`${DASHBOARD}/`) || url.startsWith(`${DASHBOARD}?`);
}

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/json\s*(;|$)/i.test(contentType.trim());
}

/**
 * node stops enforcing its request timeouts once the server starts closing, so a client still
 * sending its request would hold a stopping sandbox open until its socket idles out. Once
 * closing, a connection whose request has not arrived whole within the request time limit is
 * answered 408 and closed; requests that arrived whole are left to finish.
 */
function cutSlowRequestsOnClose(
  app: FastifyInstance,
  sockets: Set<ServerSocket>,
  limits: Limits,
  record: RecordRaw,
): void {
  let timer: NodeJS.Timeout | undefined;
  app.addHook('preClose', (done) => {
    timer = setTimeout(() => {
      for (const socket of sockets) {
        if (beingServed(socket)) continue;
        answerClientError(
          Object.assign(new Error('request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }),
          socket,
          record,
        );
      }
    }, limits.requestTimeoutMs);
    timer.unref();
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    clearTimeout(timer);
    done();
  });
}

function envelopeText(message: string): string {
  return JSON.stringify(envelope({ status: 'error', message }));
}

/** The code of the error a connection is closed with to make room under the cap. */
const MADE_ROOM = 'LOANCTL_MADE_ROOM';

const CLIENT_ERRORS: Record<string, { http: number; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    http: 408,
    message: 'The request did not arrive whole in time: send the headers and body at once',
  },
  [MADE_ROOM]: {
    http: 408,
    message: 'The connection was closed to make room for others: it had sent no whole request. Send it at once',
  },
  HPE_HEADER_OVERFLOW: { http: 431, message: 'The request headers are too large: the limit is 16 KiB in all' },
};

/**
 * node's `clientError`: the request could not be read (timeout, malformed, headers too large).
 * The reply is written on the socket by hand, as node's own is, then the connection is closed.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket, record: RecordRaw): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = CLIENT_ERRORS[error.code ?? ''] ?? {
    http: 400,
    message: 'Malformed HTTP request: the server could not read it',
  };
  const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !pending?.headersSent) {
    const body = envelopeText(known.message);
    socket.write(
      `HTTP/1.1 ${known.http} ${STATUS_CODES[known.http]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    record({ method: '-', url: '-', http: known.http, replyText: body });
  }
  socket.destroy(error);
}

/**
 * Limits that protect the sandbox from a client that is slow, broken or greedy, and the replies it
 * gives them: every one the API's envelope, never node's bare `HTTP/1.1 400 Bad Request` or
 * Fastify's own JSON.
 *
 * - A request must arrive whole (headers and body) within `requestTimeoutMs`, its headers within
 *   `headersTimeoutMs`: a client that trickles a body is answered 408 and its connection closed,
 *   so it cannot hold a stopping sandbox open. node checks these every `checkIntervalMs`.
 * - A connection idle for `idleTimeoutMs` is closed.
 * - At most `maxConnections` connections at once; node closes any more at once (the client sees
 *   a reset connection, which loanctl retries where that is safe).
 * - Header too large (431), malformed HTTP (400), an `Expect` other than `100-continue` (417),
 *   and a body whose Content-Type is not JSON (415) are answered with the envelope.
 */
import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyHttpOptions, FastifyInstance } from 'fastify';
import { BASE as DASHBOARD } from './dashboard/layout.js';
import { envelope, MESSAGES } from './envelope.js';

export interface Limits {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  idleTimeoutMs: number;
  maxConnections: number;
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
  headersTimeoutMs: 10_000,
  idleTimeoutMs: 60_000,
  maxConnections: 512,
  checkIntervalMs: 1_000,
};

/** The Fastify (and node:http) options that enforce `limits`. */
export function limitOptions(limits: Limits, record: RecordRaw): Partial<FastifyHttpOptions<Server>> {
  return {
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: limits.idleTimeoutMs,
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
  app.server.maxConnections = limits.maxConnections;
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
  cutSlowRequestsOnClose(app, limits, record);
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
function cutSlowRequestsOnClose(app: FastifyInstance, limits: Limits, record: RecordRaw): void {
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  let timer: NodeJS.Timeout | undefined;
  app.addHook('preClose', (done) => {
    timer = setTimeout(() => {
      for (const socket of sockets) {
        const pending = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
        if (pending?.req?.complete) continue;
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

const CLIENT_ERRORS: Record<string, { http: number; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    http: 408,
    message: 'The request did not arrive whole in time: send the headers and body at once',
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

/**
 * The bounds of one exchange (./transport.ts): the phase it is in when a bound ends it, the
 * connection's own timer, and the size of the reply body read.
 */
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';

/**
 * Where an exchange was when a bound ended it, carried as `phase` by CONNECT_TIMEOUT and
 * TimeoutError errors, so the message can say which step never finished: the connection (to the
 * server, or to the proxy), the proxy's answer to CONNECT, the TLS handshake (inside the tunnel
 * when proxied), the reply's headers, or its body.
 */
export type Phase = 'connect' | 'proxy' | 'tls' | 'headers' | 'body';

/** The largest reply body loanctl reads (docs/guide.md#network). */
export const MAX_REPLY_BYTES = 32 * 1024 * 1024;

/** The error code of a reply body larger than the bound. */
export const REPLY_TOO_LARGE = 'REPLY_TOO_LARGE';

/** The error code of a connection not made in time. */
export const CONNECT_TIMEOUT = 'CONNECT_TIMEOUT';
export function timeoutError(ms: number, phase: Phase): Error {
  return Object.assign(new Error(`no complete reply within ${ms} ms (${phase})`), {
    name: 'TimeoutError',
    phase,
    limitMs: ms,
  });
}

export function connectTimeoutError(ms: number, phase: Phase): Error {
  return Object.assign(new Error(`connect timed out after ${ms} ms (${phase})`), {
    code: CONNECT_TIMEOUT,
    phase,
    limitMs: ms,
  });
}

/** A socket connected, and through its TLS handshake for https. */
export function ready(socket: Socket, secure: boolean): boolean {
  return secure ? (socket as TLSSocket).authorized : !socket.connecting;
}

/**
 * Calls `timedOut` if the request's connection is not ready after `ms`: connected, and for https
 * through the TLS handshake (a server that accepts and never answers TLS counts). The clock starts
 * with the request, before the whole-exchange timer: through a proxy the socket is handed over
 * only once the tunnel is open (a proxy that never answers the CONNECT must count), and when both
 * bounds are equal (--timeout under 10 s) a connection never made must be reported as such (never
 * sent, safe to repeat), not as a request without a reply.
 */
export function limitConnect(
  request: ClientRequest,
  ms: number,
  secure: boolean,
  timedOut: (ms: number) => void,
): void {
  const timer = setTimeout(() => timedOut(ms), ms);
  const clear = () => clearTimeout(timer);
  request.once('close', clear);
  request.once('socket', (socket) => {
    // A kept-alive socket is connected, and through its handshake, already; so is the TLS socket
    // Node's own proxy support hands over (it shakes hands inside the tunnel before).
    if (request.reusedSocket || ready(socket, secure)) return clear();
    socket.once(secure ? 'secureConnect' : 'connect', clear);
    socket.once('close', clear);
  });
}

/**
 * Reads the reply's body as text, at most `maxBytes`, into `resolve`, or an error into `reject`.
 * Callbacks, not a promise: the exchange's own promise settles from them, one promise and two
 * microtasks fewer on every row of a bulk run.
 */
export function readText(
  response: IncomingMessage,
  maxBytes: number,
  resolve: (text: string) => void,
  reject: (error: Error) => void,
): void {
  let chunks: Buffer[] = [];
  let size = 0;
  const refuse = () => {
    chunks = [];
    reject(Object.assign(new Error(`the reply is larger than ${maxBytes} bytes`), { code: REPLY_TOO_LARGE, maxBytes }));
    response.destroy();
  };
  if (Number(response.headers['content-length']) > maxBytes) {
    refuse();
    return;
  }
  response.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) refuse();
    else chunks.push(chunk);
  });
  response.on('end', () => {
    // Most replies arrive in one chunk: no copy of it then.
    const text = (chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks)).toString('utf8');
    resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  });
  // The socket closed before the whole body arrived (ECONNRESET), or the timer fired.
  response.on('error', reject);
}

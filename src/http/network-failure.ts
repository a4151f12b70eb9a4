/**
 * A request that failed before a complete reply, in the operator's words, with the two facts the
 * retry loop of ./client.ts needs: whether it provably never reached the server, and whether
 * repeating it is worth anything at all.
 */

import type { Settings } from '../config/settings.js';
import { NetworkError } from '../errors.js';
import { proxyFailure, tlsFailure } from './failure.js';
import { seconds } from './retry.js';
import { describeBaseUrl } from './settings-hints.js';
import { CONNECT_TIMEOUT, type Phase, REPLY_TOO_LARGE } from './transport.js';

/** Transport errors of requests that provably never reached the server (see `neverSent`). */
const NEVER_SENT = new WeakSet<object>();

/**
 * True for a NetworkError thrown by the client when the request provably never reached the
 * server (connection refused, DNS, connect timeout): repeating it cannot apply it twice. False
 * for everything else, including a dropped connection or a timeout after sending, whose outcome
 * is unknown.
 */
export function neverSent(error: unknown): boolean {
  return typeof error === 'object' && error !== null && NEVER_SENT.has(error);
}

export interface TransportFailure {
  error: NetworkError;
  /** Short form for the retry notice. */
  short: string;
  /** The request provably never reached the server: safe to repeat whatever the method. */
  neverSent: boolean;
  /** Worth repeating at all (not a permanent failure like a bad certificate or an unknown host). */
  retryable: boolean;
}

export function transportFailure(error: unknown, url: URL, settings: Settings): TransportFailure {
  let code = errorCode(error);
  const host = url.host;
  const check = `Check the base URL (${describeBaseUrl(settings)}) and your network.`;
  const make = (message: string, hint: string, short: string, neverSent: boolean, retryable: boolean) => {
    const failure = new NetworkError(message, hint, { cause: error });
    if (neverSent) NEVER_SENT.add(failure);
    return { error: failure, short, neverSent, retryable };
  };
  if (code === REPLY_TOO_LARGE) {
    const limit = (error as { maxBytes: number }).maxBytes;
    return make(
      `The reply from ${host} is larger than ${bytes(limit)}; loanctl stopped reading it.`,
      `Ask for less (e.g. a smaller --limit), or check the base URL (${describeBaseUrl(settings)}).`,
      'reply too large',
      false,
      false,
    );
  }
  if ((error as Error)?.name === 'TimeoutError') {
    // The request's whole --timeout is spent (retries included): which phase it ended in.
    const phase = (error as { phase?: Phase }).phase;
    const limit = seconds(settings.timeoutMs);
    const hint = 'Try again, or allow longer with --timeout SECONDS.';
    if (phase === 'body')
      return make(`The reply from ${host} began but did not finish within ${limit}.`, hint, 'timed out', false, false);
    if (phase === 'headers')
      return make(`No complete reply from ${host} within ${limit}.`, hint, 'timed out', false, false);
    // Never connected: the pool was full, or the connection or its handshake took the whole time.
    Object.assign(error as Error, { code: CONNECT_TIMEOUT, limitMs: settings.timeoutMs });
    code = CONNECT_TIMEOUT;
  }
  // Through a proxy, a refused or unknown host is the proxy's; and TLS failures have their own words.
  const known = proxyFailure(error, code, url) ?? tlsFailure(error, code, url);
  if (known) return make(known.message, known.hint, known.short, known.neverSent, known.retryable);
  if (code === CONNECT_TIMEOUT && (error as { phase?: Phase }).phase === 'tls') {
    const limit = seconds((error as { limitMs: number }).limitMs);
    return make(
      `${host} accepted the connection, but the TLS handshake did not finish within ${limit}.`,
      `Is it a TLS server? ${check}`,
      'TLS handshake timed out',
      true,
      true,
    );
  }
  if (code === CONNECT_TIMEOUT) {
    return make(`Could not connect to ${host}: the connection timed out.`, check, 'connect timed out', true, true);
  }
  if (code === 'ECONNREFUSED') {
    return make(
      `Could not connect to ${host}: connection refused.`,
      `Is the server running? ${check}`,
      'connection refused',
      true,
      true,
    );
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NODATA' || code === 'EAI_NONAME') {
    return make(
      `Could not resolve the host name ${url.hostname} (DNS ${code}).`,
      check,
      'DNS lookup failed',
      true,
      code === 'EAI_AGAIN',
    );
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'EADDRNOTAVAIL') {
    return make(`Could not reach ${host} (${code}).`, check, `host unreachable`, true, true);
  }
  const detail = code ?? (error instanceof Error ? error.message : String(error));
  return make(
    `The connection to ${host} failed before a complete reply (${detail}).`,
    'Try again; if it keeps failing, check the base URL and your network.',
    `connection failed (${detail})`,
    false,
    true,
  );
}

/** A request given up because the run was stopped (Ctrl-C): whether it was applied is unknown. */
export function abandoned(url: URL): NetworkError {
  return new NetworkError(`The request to ${url.host} was abandoned (the run was stopped).`);
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const candidate = current as { code?: unknown; errors?: unknown[]; cause?: unknown };
    if (typeof candidate.code === 'string') return candidate.code;
    if (Array.isArray(candidate.errors) && candidate.errors.length > 0) current = candidate.errors[0];
    else current = candidate.cause;
  }
  return undefined;
}

/** `32 MiB` for a whole number of MiB, else bytes. */
function bytes(count: number): string {
  const mib = count / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${count} bytes`;
}

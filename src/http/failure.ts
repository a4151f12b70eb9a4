/**
 * What a failure to connect through a proxy, or a TLS failure, means to the operator, and what to
 * do about it (docs/guide.md#network). ./client.ts turns the result into the NetworkError
 * (exit 5) and decides about retries from `neverSent` and `retryable`.
 */
import { isLoopbackHost } from '../config/base-url.js';
import { PROXY_TUNNEL, PROXY_UNUSABLE, type ProxyLabel } from './proxy.js';
import { seconds } from './retry.js';
import { CONNECT_TIMEOUT, type Phase } from './transport.js';

export interface Failure {
  message: string;
  hint: string;
  /** For the retry notice. */
  short: string;
  /** The request provably never reached the API server. */
  neverSent: boolean;
  retryable: boolean;
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NODATA', 'EAI_NONAME']);
const UNREACHABLE_CODES = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

/**
 * A failure to reach the API through the proxy: the proxy is down, unknown, too slow to open the
 * tunnel, or refused it. Undefined when the failure is not the proxy's (or there is no proxy).
 * Messages name the proxy by host, port and variable, never with its credentials.
 */
export function proxyFailure(error: unknown, code: string | undefined, url: URL): Failure | undefined {
  if (code === PROXY_UNUSABLE) {
    return {
      message: `${(error as Error).message}.`,
      hint: 'Set it to http://HOST:PORT (with credentials: http://USER:PASSWORD@HOST:PORT), or unset it.',
      short: 'proxy unusable',
      neverSent: true,
      retryable: false,
    };
  }
  const proxy = (error as { proxy?: ProxyLabel } | undefined)?.proxy;
  if (!proxy) return undefined;
  const direct = `or add ${url.hostname} to NO_PROXY to connect directly`;
  const fact = (message: string, hint: string, short: string, retryable: boolean): Failure => ({
    message,
    hint,
    short,
    neverSent: true,
    retryable,
  });
  if (code === 'ECONNREFUSED') {
    return fact(
      `Could not connect to the proxy ${proxy.label}: connection refused.`,
      `Is the proxy running? Check ${proxy.variable}, ${direct}.`,
      'proxy refused the connection',
      true,
    );
  }
  if (code && DNS_CODES.has(code)) {
    return fact(
      `Could not resolve the host name of the proxy ${proxy.label} (DNS ${code}).`,
      `Check ${proxy.variable}, ${direct}.`,
      'proxy DNS lookup failed',
      code === 'EAI_AGAIN',
    );
  }
  if (code && UNREACHABLE_CODES.has(code)) {
    return fact(
      `Could not reach the proxy ${proxy.label} (${code}).`,
      `Check ${proxy.variable}, ${direct}.`,
      'proxy unreachable',
      true,
    );
  }
  const tunnel = error as { statusCode?: number; proxyTunnelTimeout?: number };
  if (code === CONNECT_TIMEOUT || (code === PROXY_TUNNEL && tunnel.proxyTunnelTimeout !== undefined)) {
    const { phase, limitMs } = error as { phase?: Phase; limitMs?: number };
    const within = `within ${seconds(limitMs ?? tunnel.proxyTunnelTimeout ?? 0)}`;
    const [message, short] =
      phase === 'connect'
        ? [`Could not connect to the proxy ${proxy.label} ${within}.`, 'proxy connect timed out']
        : phase === 'tls'
          ? [
              `The proxy ${proxy.label} opened a tunnel to ${url.host}, but the TLS handshake through it did not finish ${within}.`,
              'TLS handshake through the proxy timed out',
            ]
          : [
              `The proxy ${proxy.label} did not answer the CONNECT to ${url.host} ${within}.`,
              'proxy did not answer CONNECT',
            ];
    return fact(message, `Check ${proxy.variable}, ${direct}.`, short, true);
  }
  if (code === PROXY_TUNNEL && tunnel.statusCode !== undefined) {
    const status = tunnel.statusCode;
    const hint =
      status === 407
        ? `The proxy wants credentials: give them in ${proxy.variable} as http://USER:PASSWORD@HOST:PORT.`
        : status >= 500
          ? `The proxy could not reach ${url.host}: check the base URL, ${direct}.`
          : `Ask the proxy's administrators to allow ${url.host}, ${direct}.`;
    return fact(
      `The proxy ${proxy.label} refused to connect to ${url.host} (HTTP ${tunnel.statusCode}).`,
      hint,
      'proxy refused',
      false,
    );
  }
  if (code === PROXY_TUNNEL) {
    return fact(
      `The proxy ${proxy.label} closed the connection before it opened one to ${url.host}.`,
      `Try again; if it keeps failing, check ${proxy.variable}, ${direct}.`,
      'proxy closed the connection',
      true,
    );
  }
  return undefined;
}

const UNTRUSTED_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
]);
const EXPIRED_CODES = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
const MISMATCH_CODES = new Set(['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH']);
const OTHER_TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_)/;

/**
 * A TLS failure, said as one of "certificate not trusted", "name mismatch", "expired", or "the
 * server speaks plain HTTP", each with its fix. A TLS failure happens before the request is
 * written: never sent, and not worth repeating.
 */
export function tlsFailure(error: unknown, code: string | undefined, url: URL): Failure | undefined {
  const host = url.host;
  const fact = (message: string, hint: string, short: string): Failure => ({
    message,
    hint,
    short,
    neverSent: true,
    retryable: false,
  });
  if (code && UNTRUSTED_CODES.has(code)) {
    return fact(
      `TLS error talking to ${host}: certificate not trusted — it is not signed by a certificate authority this machine trusts (${code}).`,
      'If your organisation uses its own CA (or a proxy that inspects TLS), point NODE_EXTRA_CA_CERTS at its certificate in PEM: export NODE_EXTRA_CA_CERTS=/path/to/ca.pem',
      'certificate not trusted',
    );
  }
  if (code && MISMATCH_CODES.has(code)) {
    const names = certificateNames(error);
    return fact(
      `TLS error talking to ${host}: name mismatch — the certificate is for ${names ?? 'another name'}, not ${url.hostname} (${code}).`,
      `Use the host name the certificate is for in the base URL, or have the certificate reissued for ${url.hostname}.`,
      'certificate name mismatch',
    );
  }
  if (code && EXPIRED_CODES.has(code)) {
    const when = code === 'CERT_NOT_YET_VALID' ? 'is not valid yet' : 'has expired';
    return fact(
      `TLS error talking to ${host}: expired — the server's certificate ${when} (${code}).`,
      `The certificate of ${url.hostname} must be renewed by whoever runs it; if it looks current, check this machine's clock.`,
      'certificate expired',
    );
  }
  const proxy = (error as { proxy?: { label: string } } | undefined)?.proxy;
  if (speaksPlainHttp(error, code) && proxy) {
    // Through a tunnel, what answered may be the proxy itself (an error page) as well as the server.
    return fact(
      `Through the proxy ${proxy.label}, the tunnel to ${host} answered in plain text, not TLS (${code}): the proxy may be answering in the server's place, or the server there speaks http://.`,
      "Check that the proxy lets this host through on its https port, and the base URL's scheme and port.",
      'not TLS through the proxy',
    );
  }
  if (speaksPlainHttp(error, code)) {
    const plain = `http://${host}`;
    return fact(
      `${host} answered in plain HTTP, not TLS: the base URL says https:// but the server there speaks http://.`,
      isLoopbackHost(url.hostname)
        ? `Use ${plain} as the base URL (the sandbox speaks plain http; \`loanctl sandbox start\` prints its URL).`
        : "Check the base URL's scheme and port: the API's https port is another one.",
      'not a TLS server',
    );
  }
  if (code && OTHER_TLS_CODES.test(code)) {
    return fact(
      `TLS error talking to ${host}: ${(error as Error).message} (${code}).`,
      'Check the base URL and the server certificate.',
      'TLS error',
    );
  }
  return undefined;
}

/** OpenSSL's words for a TLS hello answered by an HTTP server. */
function speaksPlainHttp(error: unknown, code: string | undefined): boolean {
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG') return true;
  if (code !== 'EPROTO') return false;
  return /wrong version number|packet length too long|http request/i.test(String((error as Error)?.message));
}

/** `api.example.com, *.example.com` from the certificate Node attaches to a name-mismatch error. */
function certificateNames(error: unknown): string | undefined {
  const cert = (error as { cert?: { subjectaltname?: string; subject?: { CN?: string } } }).cert;
  const names = cert?.subjectaltname
    ?.split(/,\s*/)
    .map((entry) => entry.replace(/^(DNS|IP Address):/, ''))
    .join(', ');
  return names || cert?.subject?.CN;
}

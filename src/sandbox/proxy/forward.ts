/**
 * Forwarding one request to the upstream server over node:http (or node:https), and what came
 * back, or why nothing usable did: the upstream was down, did not answer within the time limit,
 * answered with something that is not HTTP, or with more than the proxy holds. Never a hang: the
 * whole exchange has one deadline.
 */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface Forwarded {
  method: string;
  /** The path and query as the client sent them. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer | undefined;
}

export interface UpstreamReply {
  http: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Why the upstream gave no usable reply: the proxy's own envelope says it. */
export interface UpstreamFailure {
  http: 502 | 504;
  message: string;
}

export interface ForwardOptions {
  upstream: URL;
  timeoutMs: number;
  maxReplyBytes: number;
}

/** The client's headers that travel on (hop-by-hop ones and Host do not). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

export function forward(request: Forwarded, options: ForwardOptions): Promise<UpstreamReply | UpstreamFailure> {
  const { upstream } = options;
  const target = new URL(upstream.pathname.replace(/\/$/, '') + request.url, upstream);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  }
  if (request.body) headers['content-length'] = String(request.body.length);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const where = upstream.origin;

  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: UpstreamReply | UpstreamFailure) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (isFailure(result)) outgoing.destroy();
      resolve(result);
    };
    const outgoing = send(target, { method: request.method, headers });
    const deadline = setTimeout(
      () =>
        settle({
          http: 504,
          message: `The upstream ${where} did not answer within ${options.timeoutMs / 1000} s (loanctl sandbox proxy --timeout)`,
        }),
      options.timeoutMs,
    );
    outgoing.on('error', (error) => settle({ http: 502, message: failureMessage(where, error) }));
    outgoing.on('response', (reply: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      reply.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxReplyBytes) {
          settle({
            http: 502,
            message: `The upstream ${where} sent a reply over ${options.maxReplyBytes} bytes; the proxy holds no more`,
          });
        } else chunks.push(chunk);
      });
      reply.on('error', (error) => settle({ http: 502, message: failureMessage(where, error) }));
      reply.on('aborted', () =>
        settle({ http: 502, message: `The upstream ${where} closed the connection in the middle of its reply` }),
      );
      reply.on('end', () => {
        if (!reply.complete) {
          settle({ http: 502, message: `The upstream ${where} closed the connection in the middle of its reply` });
        } else settle({ http: reply.statusCode ?? 502, headers: reply.headers, body: Buffer.concat(chunks) });
      });
    });
    outgoing.end(request.body);
  });
}

export function isFailure(result: UpstreamReply | UpstreamFailure): result is UpstreamFailure {
  return 'message' in result;
}

function failureMessage(where: string, error: Error): string {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (code === 'ECONNREFUSED') return `The upstream ${where} refused the connection: is it running?`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `The upstream ${where} could not be found (DNS: ${code})`;
  if (code.startsWith('HPE_')) return `The upstream ${where} answered with something that is not HTTP (${code})`;
  if (code === 'ECONNRESET' || error.message === 'socket hang up') {
    return `The upstream ${where} closed the connection without a complete reply`;
  }
  return `The upstream ${where} could not be reached: ${code || error.message}`;
}

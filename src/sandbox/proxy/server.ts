/**
 * `loanctl sandbox proxy`: listens like the sandbox (the same limits, the same request log), sends
 * each request on to the upstream server with the caller's own key, and checks the request and the
 * reply against the contract (./check.ts). Each break goes into the request log beside the request;
 * `strict` answers a reply that breaks the contract with a 502 envelope naming the break. A request
 * the upstream gives no usable reply to gets the proxy's own envelope (./forward.ts).
 */
import { join } from 'node:path';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { MAX_REPLY_BYTES } from '../../http/bounds.js';
import { BODY_LIMIT } from '../app.js';
import { ensureControlKey } from '../control/control-key.js';
import { registerControlRoutes } from '../control-routes.js';
import { envelope, MESSAGES } from '../envelope.js';
import { Observers } from '../observe.js';
import { listenGuarded } from '../server.js';
import { checkReply, checkRequest, operationFor, unknownOperation } from './check.js';
import { forward, isFailure, type UpstreamReply } from './forward.js';
import { describeViolation, type Violation, ViolationTally } from './violations.js';

export interface ProxyOptions {
  upstream: URL;
  host: string;
  port: number;
  /** Where its request log goes (the file `sandbox logs --data-dir` reads). */
  dataDir: string;
  strict: boolean;
  timeoutMs: number;
  onError: (error: unknown) => void;
}

export interface RunningProxy {
  url: string;
  tally: ViolationTally;
  close(): Promise<void>;
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const observers = new Observers(join(options.dataDir, 'proxy.db'), {}, options.onError);
  const app = Fastify({
    ...observers.serverOptions(),
    logger: false,
    bodyLimit: BODY_LIMIT,
    return503OnClosing: false,
  });
  observers.install(app, undefined);
  const flush = () => observers.flushLog();
  app.decorate('flushRequestLog', flush);
  registerControlRoutes(app, {
    dataDir: options.dataDir,
    controlKey: ensureControlKey(options.dataDir),
    flush,
    now: () => new Date(),
  });
  const tally = new ViolationTally();
  // The body travels as it came; it is read as JSON only to be checked and logged.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    const http = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (http === 500) options.onError(error);
    sendEnvelope(reply, http, http === 500 ? MESSAGES.somethingWentWrong : error.message);
  });
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '*',
    handler: (request, reply) => answerThrough(request, reply, options, tally),
  });

  const { url } = await listenGuarded(app, options.host, options.port, []);
  return { url, tally, close: () => app.close() };
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** One request: checked, forwarded, its reply checked, then passed on (or the proxy's own envelope). */
async function answerThrough(
  request: FastifyRequest,
  reply: FastifyReply,
  options: ProxyOptions,
  tally: ViolationTally,
) {
  const path = request.url.split('?', 1)[0] as string;
  const def = operationFor(request.method, path);
  const raw = request.body as Buffer | undefined;
  const body = jsonOf(raw);
  // The log keeps the body as JSON, or as text when it is not.
  request.body = body.json ?? raw?.toString('utf8');
  const violations = def
    ? checkRequest(def, new URLSearchParams(request.url.slice(path.length)), body.json)
    : [unknownOperation(request.method, path)];

  const result = await forward(
    { method: request.method, url: request.url, headers: request.headers, body: raw },
    // The same bound as loanctl's own client: what the CLI would refuse, the proxy does too.
    { upstream: options.upstream, timeoutMs: options.timeoutMs, maxReplyBytes: MAX_REPLY_BYTES },
  );
  if (isFailure(result)) {
    record(request, violations, tally);
    return sendEnvelope(reply, result.http, result.message);
  }
  const breaks = def ? checkReply(def, jsonOf(result.body).json, whatCame(result)) : [];
  record(request, [...violations, ...breaks], tally);
  if (options.strict && breaks[0]) {
    const more = breaks.length > 1 ? ` (and ${breaks.length - 1} more)` : '';
    const message = `The upstream's reply breaks the contract: ${describeViolation(breaks[0])}${more}; see loanctl sandbox logs --violations`;
    return sendEnvelope(reply, 502, message);
  }
  return passOn(reply, result);
}

function sendEnvelope(reply: FastifyReply, http: number, message: string) {
  return reply
    .code(http)
    .type(JSON_TYPE)
    .send(envelope({ status: 'error', message }));
}

/** The headers of the upstream's reply that the client gets too. */
const PASSED_ON = ['content-type', 'retry-after', 'date', 'preference-applied'];

function passOn(reply: FastifyReply, result: UpstreamReply) {
  reply.code(result.http);
  for (const name of PASSED_ON) {
    const value = result.headers[name];
    if (value !== undefined) reply.header(name, value);
  }
  return reply.send(result.body);
}

function record(request: FastifyRequest, violations: Violation[], tally: ViolationTally): void {
  tally.count(violations);
  if (violations.length > 0) request.violations = JSON.stringify(violations);
}

function jsonOf(body: Buffer | undefined): { json?: unknown } {
  if (body === undefined || body.length === 0) return {};
  try {
    return { json: JSON.parse(body.toString('utf8')) };
  } catch {
    return {};
  }
}

/** What a reply that is not JSON was: its status, type and first characters. */
function whatCame(result: UpstreamReply): string {
  const text = result.body.toString('utf8', 0, 60).replace(/\s+/g, ' ').trim();
  return `HTTP ${result.http} ${result.headers['content-type'] ?? 'without a Content-Type'}: ${JSON.stringify(text)}`;
}

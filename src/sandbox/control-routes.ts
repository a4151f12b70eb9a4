/**
 * The control plane over HTTP, for a test suite in any language: `GET /__sandbox/requests` (what
 * the sandbox received, ./log/requests.ts) and `POST /__sandbox/requests/flush` (./log/fresh.ts),
 * under the control plane's own key (./control/control-key.ts), not an organisation's. Their
 * replies are the API's envelope; they are not in the request log they read.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { durationMs } from '../input/duration.js';
import { envelope, fail, type Outcome, SandboxReply } from './envelope.js';
import { FLUSH_PATH, readFreshLog } from './log/fresh.js';
import { MAX_REQUESTS, matchingRequests, publicRequest, RequestMatchError } from './log/requests.js';
import { hashApiKey } from './secrets.js';

export const REQUESTS_PATH = '/__sandbox/requests';

export const CONTROL_KEY_MESSAGES = {
  missing:
    'The control plane needs its own key: send Authorization: Bearer <control key> (loanctl sandbox start prints it)',
  wrong: "That is not this sandbox's control key (an organisation's API key does not open the control plane)",
};

export interface ControlOptions {
  dataDir: string;
  controlKey: string;
  flush: () => void;
  now: () => Date;
}

export function registerControlRoutes(app: FastifyInstance, options: ControlOptions): void {
  const digest = Buffer.from(hashApiKey(options.controlKey), 'hex');
  const guard = (request: FastifyRequest) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match?.[1]) throw fail(401, CONTROL_KEY_MESSAGES.missing);
    if (!timingSafeEqual(Buffer.from(hashApiKey(match[1]), 'hex'), digest)) throw fail(401, CONTROL_KEY_MESSAGES.wrong);
  };
  const answer = (reply: FastifyReply, work: () => Outcome) => {
    let outcome: Outcome;
    try {
      outcome = work();
    } catch (error) {
      if (error instanceof RequestMatchError) outcome = { http: 400, status: 'error', message: error.message };
      else if (error instanceof SandboxReply) outcome = error.outcome;
      else throw error;
    }
    reply
      .code(outcome.http ?? 200)
      .type('application/json; charset=utf-8')
      .send(envelope(outcome));
  };

  app.get(REQUESTS_PATH, { config: { unlogged: true } }, (request, reply) =>
    answer(reply, () => {
      guard(request);
      const query = request.query as Record<string, string | undefined>;
      const limit = query.limit === undefined ? MAX_REQUESTS : Number(query.limit);
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_REQUESTS) {
        throw fail(400, `limit must be a whole number from 1 to ${MAX_REQUESTS}`);
      }
      const match = {
        method: query.method,
        path: query.path,
        status: query.status,
        since: sinceOf(query.since, options.now),
      };
      const rows = readFreshLog(options.flush, options.dataDir, (db) => matchingRequests(db, match, limit)) ?? [];
      return { status: 'success', message: `${rows.length} matching requests`, data: rows.map(publicRequest) };
    }),
  );

  app.post(FLUSH_PATH, { config: { unlogged: true } }, (request, reply) =>
    answer(reply, () => {
      guard(request);
      options.flush();
      return { status: 'success', message: 'Every request answered so far is in the request log', data: null };
    }),
  );
}

/** `since` as an ISO time, or a duration back from now (`10m`: the last ten minutes, by the wall clock). */
function sinceOf(text: string | undefined, now: () => Date): string | undefined {
  if (text === undefined) return undefined;
  const back = durationMs(text);
  return back === undefined ? text : new Date(now().getTime() - back).toISOString();
}

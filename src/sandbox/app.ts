/**
 * The sandbox as a Fastify app: routes generated from the contract table (ENDPOINTS), one handler
 * per endpoint key (handlers/, one file per resource group), every reply the API's envelope.
 * Tests drive it with `app.inject`; only server.ts listens.
 *
 * The order of checks for every operation:
 *   1. API key (401)                   4. the caller's product, user, loan request (200 no-access)
 *   2. product-id present (200 error)  5. its stage, by the state table (stage-moves.ts)
 *   3. query and body valid (400)      6. the handler: a GET in its own read transaction, a write in a group commit
 * (Faults come before all of these: a GET's in its read transaction, observe.ts `serveRead`.)
 */
import { dirname } from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ENDPOINTS, type EndpointDef, type EndpointKey } from '../contract/endpoints.js';
import { retryWhileBusy } from './busy.js';
import { databaseClock, tellTimeInDateHeader } from './control/clock.js';
import { ensureControlKey } from './control/control-key.js';
import { registerControlRoutes } from './control-routes.js';
import { registerDashboard } from './dashboard/index.js';
import { requestLogReader } from './dashboard/request-log.js';
import { SandboxDb } from './db.js';
import { fail, MESSAGES, noAccess, noAccessMessage, type Outcome, replyBody, SandboxReply } from './envelope.js';
import { HANDLERS } from './handlers/index.js';
import type { Checkable, Context, Handler } from './handlers/types.js';
import { unstorableNul } from './nul-text.js';
import { type ObserveOptions, Observers } from './observe.js';
import { serveOpenApi } from './openapi-route.js';
import { installPreferences } from './prefer.js';
import { createRepos, type KeyOwner, type Repos } from './repos/index.js';
import { hashApiKey } from './secrets.js';
import { enterStage } from './stage-moves.js';
import { isOutOfStorage, reportingOnce, toStderr } from './trouble.js';
import { describeIssues, invalidFieldsMessage, malformedJsonMessage, productIdProblems } from './validation.js';

/** Largest request body: 1 MiB. */
export const BODY_LIMIT = 1024 * 1024;

export interface SandboxOptions extends ObserveOptions {
  /** The SQLite file (created and migrated if needed). */
  dbPath: string;
  /** The clock; every timestamp the sandbox writes comes from it. Default: the data dir's own (control/clock.ts). */
  now?: () => Date;
  /** Told about unexpected errors (answered with a 500 envelope). Default: one line on stderr. */
  onError?: (error: unknown) => void;
  /** How long a write waits for another process's write lock before answering 503 (busy.ts). */
  lockWaitMs?: number;
}

export async function buildSandbox(options: SandboxOptions): Promise<FastifyInstance> {
  const db = SandboxDb.open(options.dbPath, { failFastOnLock: true });
  const repos = createRepos(db);
  const now = options.now ?? databaseClock(db);
  // Repeats of one failure are told as a count, a full disk as itself (trouble.ts).
  const { report: onError, flush: flushErrors } = reportingOnce(options.onError ?? toStderr, dirname(options.dbPath));

  // Limits, faults and the request log (observe.ts).
  const observers = new Observers(options.dbPath, options, onError);
  const app = Fastify({
    ...observers.serverOptions(),
    logger: false,
    bodyLimit: BODY_LIMIT,
    return503OnClosing: false,
    // A long path id must still reach the route (and answer no-access), not fall through to 404.
    routerOptions: { maxParamLength: 2048 },
    // Errors the router meets before any route or error handler runs: still the envelope.
    frameworkErrors: (error, _request, reply) => send(reply, routerError(error)),
  });
  app.addHook('onClose', async () => {
    db.close();
    flushErrors();
  });
  tellTimeInDateHeader(app, now);
  installPreferences(app, (request) => authenticate(request, repos).org_id);
  observers.install(app, db);

  // JSON bodies: an empty body counts as none (curl -X PUT …/submit -H 'Content-Type: application/json').
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    if (typeof text !== 'string' || text.trim() === '') return done(null, undefined);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      return done(Object.assign(new Error(malformedJsonMessage(error)), { statusCode: 400 }), undefined);
    }
    const unstorable = unstorableNul(text, body);
    if (unstorable) return done(Object.assign(new Error(unstorable), { statusCode: 400 }), undefined);
    done(null, body);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    send(reply, { http: 404, status: 'error', message: `No such operation: ${request.method} ${path}` });
  });

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error instanceof SandboxReply) return send(reply, error.outcome);
    if (isOutOfStorage(error)) {
      onError(error);
      return send(reply, { http: 507, status: 'error', message: MESSAGES.diskFull });
    }
    const outcome = frameworkError(error);
    if (outcome.http === 500) onError(error);
    send(reply, outcome);
  });

  serveOpenApi(app);
  app.decorate('flushRequestLog', () => observers.flushLog());
  if (options.dbPath !== ':memory:') {
    const dataDir = dirname(options.dbPath);
    const flush = () => observers.flushLog();
    registerControlRoutes(app, { dataDir, controlKey: ensureControlKey(dataDir), flush, now: () => new Date() });
  }

  // Each operation at its path, and at the paths the real service documents besides the spec's
  // (tokenize_mono), with the same behaviour.
  for (const [def, url] of (ENDPOINTS as readonly EndpointDef[]).flatMap((def) =>
    [def.path, ...(def.otherPaths ?? [])].map((path) => [def, path] as const),
  )) {
    const handler = HANDLERS[def.key as EndpointKey] as Handler<EndpointKey>;
    app.route({
      method: def.method,
      url,
      config: { operation: def.key, faultsInRead: def.method === 'GET' },
      // A GET is answered synchronously, without a microtask turn, its faults checked in its read
      // transaction; a write once its group commit is in.
      handler: (request, reply) => {
        const answer = () => serve(def, handler, request, repos, db, now);
        if (def.method === 'GET') {
          const read = <T>(work: () => T) => retryWhileBusy(() => db.read(work), options.lockWaitMs);
          // `serve` runs a GET to its outcome without awaiting (below).
          const answerNow = answer as () => Outcome;
          const answered = observers.serveRead(request, reply, read, answerNow, (outcome) => send(reply, outcome));
          return answered instanceof Promise ? answered.then(() => reply) : reply;
        }
        const outcome = retryWhileBusy(answer, options.lockWaitMs);
        if (outcome instanceof Promise) {
          return outcome.then((settled) => {
            send(reply, settled);
            return reply;
          });
        }
        send(reply, outcome);
        return reply;
      },
    });
  }
  // The lender dashboard: its approval is `serve` with the signed-in caller, as the endpoint's is.
  const operate = (def: EndpointDef, input: OperationInput, caller: KeyOwner) =>
    retryWhileBusy(
      () => serve(def, HANDLERS[def.key as EndpointKey] as Handler<EndpointKey>, input, repos, db, now, caller),
      options.lockWaitMs,
    );
  const requestLog =
    options.requestLog === false ? undefined : requestLogReader(options.dbPath, () => observers.flushLog());
  await registerDashboard(app, { db, repos, operate, now, onError, requestLog });
  return app;
}

/** What `serve` reads of a request: the dashboard hands it the same parts of its own form. */
type OperationInput = Pick<FastifyRequest, 'headers' | 'query' | 'body' | 'params'> & {
  orgId?: number;
  sandboxNow?: Date;
};

function send(reply: FastifyReply, outcome: Outcome): void {
  reply
    .code(outcome.http ?? 200)
    .type('application/json; charset=utf-8')
    .send(replyBody(outcome));
}

function frameworkError(error: FastifyError): Outcome {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { http: 413, status: 'error', message: MESSAGES.bodyTooLarge };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { http: 415, status: 'error', message: MESSAGES.unsupportedContentType };
  }
  const code = error.statusCode ?? 500;
  if (code >= 400 && code < 500) return { http: code, status: 'error', message: error.message };
  return { http: 500, status: 'error', message: MESSAGES.somethingWentWrong };
}

/** A path the router cannot take: a parameter over the length limit, or bad percent-encoding. */
function routerError(error: FastifyError): Outcome {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return { http: 414, status: 'error', message: 'A path parameter is too long: ids are whole numbers' };
  }
  return { http: 400, status: 'error', message: 'The path is not a valid URL: check its percent-encoding' };
}

/** The caller's organisation for the request's key, looked up on every request: new keys work at once. */
function authenticate(request: OperationInput, repos: Repos): KeyOwner {
  const header = request.headers.authorization;
  if (header === undefined || header.trim() === '') throw fail(401, MESSAGES.keyMissing);
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const owner = match?.[1] ? repos.organisations.keyOwner(hashApiKey(match[1])) : undefined;
  if (!owner) throw fail(401, MESSAGES.keyInvalid);
  return owner;
}

/** A positive integer id as written in a path or query, else undefined (answered as no-access). */
function parseId(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^[1-9]\d{0,15}$/.test(value)) return undefined;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : undefined;
}

function single(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

function serve(
  def: EndpointDef,
  handler: Handler<EndpointKey>,
  request: OperationInput,
  repos: Repos,
  db: SandboxDb,
  clock: () => Date,
  signedIn?: KeyOwner,
): Outcome | Promise<Outcome> {
  try {
    const caller = signedIn ?? authenticate(request, repos);
    request.orgId = caller.org_id;
    const rawQuery = { ...(request.query as Record<string, unknown>) };
    const productIdText = single(rawQuery['product-id']);
    delete rawQuery['product-id'];
    if (def.productId && (productIdText === undefined || productIdText === '')) {
      return { status: 'error', message: MESSAGES.productRequired };
    }

    handler.precheck?.(rawQuery);
    const input = validate(def, rawQuery, request.body, [
      ...productIdProblems(def, request.query),
      ...(handler.inspect?.({ query: rawQuery, body: request.body, caller }) ?? []),
    ]);
    const checkable = { ...input, caller } as Checkable<EndpointKey>;
    const extra = handler.check?.(checkable) ?? [];
    if (extra.length > 0) throw fail(400, invalidFieldsMessage(extra));

    // A GET runs to its reply without awaiting, inside the route's read transaction; a write runs
    // in the next group commit (db.write), reading inside it.
    const work = (): Outcome => {
      // Read inside the request's transaction: a read outside one starts its own.
      const now = clock();
      request.sandboxNow = now;
      const ctx: Record<string, unknown> = { repos, caller, now, stamp: now.toISOString(), ...input };
      // Made only when thrown: an Error captures a stack trace, a cost on every request otherwise.
      const denied = () => noAccess(noAccessMessage(def));
      if (def.productId) {
        const productId = parseId(productIdText);
        ctx.product = productId === undefined ? undefined : repos.products.findForOrg(caller.org_id, productId);
        if (!ctx.product) throw denied();
      }
      const params = request.params as Record<string, string>;
      if (def.pathParams.includes('user_id')) {
        const userId = parseId(params.user_id);
        ctx.user = userId === undefined ? undefined : repos.users.findInOrg(caller.org_id, userId);
        if (!ctx.user) throw denied();
      }
      if (def.pathParams.includes('id')) {
        const id = parseId(params.id);
        const loanRequest = id === undefined ? undefined : repos.loanRequests.findInOrg(caller.org_id, id);
        const product = ctx.product as { id: number } | undefined;
        if (!loanRequest || (product && loanRequest.product_id !== product.id)) throw denied();
        ctx.loanRequest = enterStage(def.key, loanRequest, repos, ctx.stamp as string);
      }
      return handler.run(ctx as Context<EndpointKey>);
    };
    return def.method === 'GET' ? work() : db.write(work).catch(replyOf);
  } catch (error) {
    return replyOf(error);
  }
}

/** A SandboxReply thrown anywhere in a request is its reply; anything else stays an error. */
function replyOf(error: unknown): Outcome {
  if (error instanceof SandboxReply) return error.outcome;
  throw error;
}

/** Parses query and body with the contract's schemas; one 400 naming every bad field. */
function validate(def: EndpointDef, rawQuery: Record<string, unknown>, rawBody: unknown, more: string[] = []) {
  const problems: string[] = [];
  const query = def.query.safeParse(rawQuery);
  if (!query.success) problems.push(...describeIssues(query.error.issues, rawQuery, 'query'));
  let body: unknown;
  if (def.body) {
    const parsed = def.body.safeParse(rawBody);
    if (parsed.success) body = parsed.data;
    else problems.push(...describeIssues(parsed.error.issues, rawBody, 'body'));
  }
  problems.push(...more.filter((part) => !problems.some((known) => known.startsWith(`${part.split(' ')[0]} `))));
  if (problems.length > 0) throw fail(400, invalidFieldsMessage(problems));
  return { query: query.data as Record<string, unknown>, body };
}

/**
 * What the sandbox does around every request besides answering it: the limits that protect it
 * (limits.ts), the faults it injects (faults/), and the request log (log/). app.ts calls the
 * three hooks below, and an API read's handler `serveRead` (which checks the faults in the read's
 * own transaction); nothing else of these modules reaches the handlers.
 */

import type { Server } from 'node:http';
import { dirname, join } from 'node:path';
import type { FastifyHttpOptions, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxDb } from './db.js';
import type { Outcome } from './envelope.js';
import { FaultInjector, type Matched, sendFault } from './faults/inject.js';
import type { FaultRow } from './faults/store.js';
import { DEFAULT_LIMITS, installLimits, type Limits, limitOptions, type RawReply } from './limits.js';
import { type Captured, CLIENT_GONE_HTTP, DROPPED_HTTP } from './log/entry.js';
import { DEFAULT_MAX_ROWS, ENDED, type Ended, LOG_FILE_NAME, openLogForWriting } from './log/store.js';
import { RequestLogWriter } from './log/writer.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's organisation, once its key was accepted. */
    orgId: number | undefined;
    /** The fault that answered the request. */
    faultId: number | undefined;
    /** The reply's body as sent. */
    replyText: string | undefined;
    /** The request's log entry was made (answered or client gone: only the first counts). */
    logged: boolean;
    /** What its `Prefer` header asked for, as applied (./prefer.ts). */
    preferred: string | undefined;
    /** Its connection was closed without a reply because its `Prefer: drop` asked for it. */
    dropped: boolean;
    /** `sandbox proxy`: the contract's breaks found in the request and its reply, as JSON. */
    violations: string | undefined;
  }
  interface FastifyContextConfig {
    /** The control plane's own routes (./control-routes.ts): not in the request log they serve. */
    unlogged?: boolean;
    /** An API read: its handler checks the faults, inside its read transaction (`Observers.serveRead`). */
    faultsInRead?: boolean;
  }
}

export interface ObserveOptions {
  limits?: Partial<Limits>;
  /** false: no request log. maxRows: entries kept; flushMs: the longest an entry waits in memory. */
  requestLog?: false | { maxRows?: number; flushMs?: number };
}

const FLUSH_MS = 200;

export class Observers {
  private readonly limits: Limits;
  private readonly log: RequestLogWriter | undefined;
  private faults: FaultInjector | undefined;

  constructor(dbPath: string, options: ObserveOptions, onError: (error: unknown) => void) {
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    if (options.requestLog === false || dbPath === ':memory:') return;
    this.log = new RequestLogWriter(openLogForWriting(join(dirname(dbPath), LOG_FILE_NAME)), {
      maxRows: options.requestLog?.maxRows ?? DEFAULT_MAX_ROWS,
      flushMs: options.requestLog?.flushMs ?? FLUSH_MS,
      onError,
    });
  }

  /** Commits the entries written so far, so a reader sees them (./log/fresh.ts). */
  flushLog(): void {
    this.log?.flush();
  }

  /** Options for Fastify's constructor. */
  serverOptions(): Partial<FastifyHttpOptions<Server>> {
    return limitOptions(this.limits, (raw) => this.log?.push(rawEntry(raw)));
  }

  /**
   * Hooks on the built app: limits, faults (with the data's database; `sandbox proxy` has none),
   * logging; the log is written out when the app closes.
   */
  install(app: FastifyInstance, db: SandboxDb | undefined): void {
    installLimits(app, this.limits, (raw) => this.log?.push(rawEntry(raw)));
    app.decorateRequest('orgId', undefined);
    app.decorateRequest('faultId', undefined);
    app.decorateRequest('replyText', undefined);
    app.decorateRequest('preferred', undefined);
    app.decorateRequest('dropped', false);
    app.decorateRequest('violations', undefined);

    if (db) this.installFaults(app, db);
    this.installLog(app);
  }

  private installFaults(app: FastifyInstance, db: SandboxDb): void {
    const faults = new FaultInjector(db);
    this.faults = faults;
    app.addHook('preHandler', (request, reply, done) => {
      // An API read checks them itself, inside its own read transaction (`serveRead`).
      if (request.routeOptions.config?.faultsInRead) return done();
      const fault = faults.pick(request.method, pathOf(request));
      if (fault) applyFault(request, reply, fault, done);
      else done();
    });
  }

  /**
   * Serves an API read (app.ts; its route has `faultsInRead`, and the hook leaves it alone): the
   * faults are checked and, when none matches, the operation is served, in one read transaction,
   * `read`. Checked by the hook, in a read transaction of their own, they would cost a list GET as
   * much as its look-ups of the key, product and clock together (docs/decisions/faults-in-read.md).
   * When one matches, the read ends there and the request goes on as the hook takes it: counted,
   * then answered by the fault, or served by `read` again. `send` sends the operation's outcome.
   */
  serveRead(
    request: FastifyRequest,
    reply: FastifyReply,
    read: <T>(work: () => T) => T | Promise<T | Outcome>,
    serve: () => Outcome,
    send: (outcome: Outcome) => void,
  ): void | Promise<void> {
    const faults = this.faults;
    let matched: Matched | undefined;
    // Retried whole when busy: `match` changes nothing when nothing matches, and a match ends the read.
    const first = read(() => {
      matched = faults?.match(request.method, pathOf(request));
      return matched ? undefined : serve();
    });
    const goOn = (outcome: Outcome | undefined): void | Promise<void> => {
      if (outcome) return send(outcome);
      if (!faults || !matched) return;
      const { fault, fires } = matched;
      faults.count(matched);
      return new Promise((resolve) => {
        const serveAsUsual = () => resolve(whenSettled(read(serve), send));
        if (fires) applyFault(request, reply, fault, serveAsUsual, resolve);
        else serveAsUsual();
      });
    };
    return whenSettled(first, goOn);
  }

  private installLog(app: FastifyInstance): void {
    const log = this.log;
    if (!log) return;
    app.decorateRequest('logged', false);
    const record = (request: FastifyRequest, reply: FastifyReply, ended: Ended) => {
      if (request.logged || request.routeOptions.config?.unlogged) return;
      request.logged = true;
      log.push(captured(request, reply, ended));
    };
    // A client that closes the connection before its reply (a timeout shorter than a fault's
    // latency, a write still in its group commit) gets no 'finish', so no onResponse: the
    // response's 'close' without a finished reply records it, so the log shows every request.
    app.addHook('onRequest', (request, reply, done) => {
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) record(request, reply, request.dropped ? ENDED.dropped : ENDED.clientGone);
      });
      done();
    });
    app.addHook('onSend', (request, _reply, payload, done) => {
      if (typeof payload === 'string') request.replyText = payload;
      done(null, payload);
    });
    app.addHook('onResponse', (request, reply, done) => {
      record(request, reply, ENDED.answered);
      done();
    });
    app.addHook('onClose', async () => log.close());
  }
}

/** The request's path, without its query: what a fault's glob is matched against. */
function pathOf(request: FastifyRequest): string {
  return request.url.split('?', 1)[0] as string;
}

/**
 * A fault that fired: its latency, then its reply, or, with no status, `proceed` to serve the
 * request as usual. `answered` is told once the fault's reply is sent.
 */
function applyFault(
  request: FastifyRequest,
  reply: FastifyReply,
  fault: FaultRow,
  proceed: () => void,
  answered: () => void = () => {},
): void {
  request.faultId = fault.id;
  const answer = () => {
    if (fault.http === null) return proceed();
    sendFault(reply, { ...fault, http: fault.http });
    answered();
  };
  if (fault.latency_ms > 0) setTimeout(answer, fault.latency_ms);
  else answer();
}

/** `then(value)`, at once for a value, or once a promise of one settles. */
function whenSettled<T, R>(value: T | Promise<T>, then: (settled: T) => R | Promise<R>): R | Promise<R> {
  return value instanceof Promise ? value.then(then) : then(value);
}

function captured(request: FastifyRequest, reply: FastifyReply, ended: Ended): Captured {
  return {
    at: Date.now(),
    method: request.method,
    url: request.url,
    http: ended === ENDED.clientGone ? CLIENT_GONE_HTTP : ended === ENDED.dropped ? DROPPED_HTTP : reply.statusCode,
    ms: reply.elapsedTime,
    orgId: request.orgId,
    faultId: request.faultId,
    params: request.params,
    requestBody: request.body,
    replyText: request.replyText,
    authorization: request.headers.authorization,
    ended,
    prefer: request.preferred,
    violations: request.violations,
  };
}

function rawEntry(raw: RawReply): Captured {
  return {
    ...raw,
    at: Date.now(),
    ms: 0,
    orgId: undefined,
    faultId: undefined,
    params: undefined,
    requestBody: undefined,
    authorization: undefined,
    ended: ENDED.answered,
  };
}

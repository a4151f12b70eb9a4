/**
 * The lender dashboard at /dashboard on the sandbox's own port: server-rendered pages over the
 * sandbox's data, signed in with the organisation's API key (spec section 1, point 5: a lender
 * approves "either from a lender dashboard or by the action endpoint").
 *
 * Everything here lives in its own Fastify scope: the cookie and form-body parsers, the HTML error
 * pages and the security headers apply to /dashboard only, and the API's routes answer as before
 * (a form-encoded body to the API is still a 415).
 */
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EndpointDef } from '../../contract/endpoints.js';
import type { SandboxDb } from '../db.js';
import type { Outcome } from '../envelope.js';
import type { KeyOwner, Repos } from '../repos/index.js';
import { PREVIEW_SCRIPT } from './approval.js';
import { html } from './html.js';
import { BASE, page, STYLE } from './layout.js';
import type { RequestLogSource } from './lists.js';
import { registerPages } from './pages.js';
import { COOKIE, csrfMatches, type Session, SessionStore, SignInTokens } from './session.js';

/** Runs an operation of the contract as its endpoint does (app.ts `serve`), for a known caller. */
type Operate = (
  def: EndpointDef,
  input: {
    headers: Record<string, string>;
    query: Record<string, string>;
    body: unknown;
    params: Record<string, string>;
  },
  caller: KeyOwner,
) => Outcome | Promise<Outcome>;

export interface DashboardOptions {
  db: SandboxDb;
  repos: Repos;
  operate: Operate;
  now: () => Date;
  /** Told about unexpected errors (the page says only that something went wrong). */
  onError: (error: unknown) => void;
  /** The sandbox's request log, where it keeps one; the log page says when it does not. */
  requestLog?: RequestLogSource;
}

/** What a page handler knows of the request once it is signed in. */
export interface SignedIn {
  session: Session;
  owner: KeyOwner;
}

export interface DashboardContext extends DashboardOptions {
  sessions: SessionStore;
  /** The sign-in form's token, made from the visitor's cookie (nothing kept before sign-in). */
  signInTokens: SignInTokens;
  /** The request's live session, if its cookie names one. */
  sessionOf(request: FastifyRequest): Session | undefined;
  /** Sets the cookie (HttpOnly, SameSite=Strict, only under /dashboard): a session's id, or a sign-in nonce. */
  setCookie(reply: FastifyReply, request: FastifyRequest, value: string): void;
  /** The signed-in caller, looked up from the session's key digest on every request; else undefined. */
  signedIn(request: FastifyRequest): SignedIn | undefined;
}

const HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export async function registerDashboard(app: FastifyInstance, options: DashboardOptions): Promise<void> {
  // Browsers still ask for /favicon.ico now and then (after a redirect, before a page's <link>).
  app.get('/favicon.ico', (_request, reply) =>
    reply.type('image/svg+xml').header('cache-control', 'max-age=86400').send(ICON),
  );
  await app.register(
    async (scope) => {
      // @fastify/cookie parses and serialises cookies by RFC 6265 and @fastify/formbody parses
      // form posts: both Fastify's own, kept up with Fastify, and neither is our domain.
      await scope.register(cookie);
      await scope.register(formbody, { bodyLimit: 64 * 1024 });
      scope.addHook('onSend', async (_request, reply) => {
        reply.headers(HEADERS);
      });
      const context = dashboardContext(options);
      scope.addHook('preHandler', async (request, reply) => {
        if (request.method !== 'POST') return;
        const given = (request.body as Record<string, unknown> | undefined)?.token;
        const genuine =
          request.routeOptions.url === `${BASE}/sign-in`
            ? context.signInTokens.matches(request.cookies[COOKIE], given)
            : csrfMatches(context.sessionOf(request), given);
        if (!genuine) {
          return reply.code(403).type('text/html; charset=utf-8').send(refusal(FORGED));
        }
      });
      scope.setErrorHandler((error: FastifyError, _request, reply) => {
        const code = error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 500;
        if (code === 500) options.onError(error);
        const message = code === 500 ? 'Something went wrong in the sandbox.' : error.message;
        reply.code(code).type('text/html; charset=utf-8').send(refusal(message));
      });
      scope.get('/assets/style.css', (_request, reply) => reply.type('text/css; charset=utf-8').send(STYLE.text));
      // The page names its icon, so a browser does not ask for /favicon.ico (a 404 in the log).
      scope.get('/assets/icon.svg', (_request, reply) => reply.type('image/svg+xml').send(ICON));
      scope.get('/assets/preview.js', (_request, reply) =>
        reply.type('text/javascript; charset=utf-8').send(PREVIEW_SCRIPT),
      );
      registerPages(scope, context);
    },
    { prefix: BASE },
  );
}

/** A green square with an "L": the dashboard's icon in the browser's tab. */
const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1f6f4a"/><path d="M5 3v10h6" stroke="#fff" stroke-width="2" fill="none"/></svg>';

const FORGED = 'This form did not come from this dashboard, or your session ended: open the page again and resubmit.';

function refusal(message: string): string {
  return page({
    title: 'Not done',
    body: html`<p class="notice error" role="alert">${message}</p><p><a href="${BASE}/loans">Back to the dashboard</a></p>`,
  });
}

function dashboardContext(options: DashboardOptions): DashboardContext {
  const sessions = new SessionStore();
  const sessionOf = (request: FastifyRequest) => sessions.find(request.cookies[COOKIE]);
  return {
    ...options,
    sessions,
    signInTokens: new SignInTokens(),
    sessionOf,
    setCookie: (reply, request, value) => {
      reply.setCookie(COOKIE, value, {
        path: BASE,
        httpOnly: true,
        sameSite: 'strict',
        secure: request.protocol === 'https',
      });
    },
    signedIn: (request) => {
      const session = sessionOf(request);
      const owner = session?.keyHash ? options.repos.organisations.keyOwner(session.keyHash) : undefined;
      return session && owner ? { session, owner } : undefined;
    },
  };
}

/** The dashboard's routes: sign-in and sign-out, the lists, one loan request, its approval. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { endpointDef } from '../../contract/endpoints.js';
import { MESSAGES } from '../envelope.js';
import type { LoanRequestRow } from '../repos/index.js';
import { hashApiKey } from '../secrets.js';
import { approvalBodyFromForm, type Form, FormProblem, schedulePreview } from './approval.js';
import { type Html, html } from './html.js';
import type { DashboardContext, SignedIn } from './index.js';
import { BASE, csrfField, notice, page } from './layout.js';
import { borrowersPage, LOG_ROWS, loansPage, logPage, queuePage } from './lists.js';
import { approvePage, loanPage } from './loan-page.js';
import { DashboardQueries, FILTER_VALUES, type LoanFilters } from './queries.js';
import { COOKIE } from './session.js';

type Query = Record<string, string | string[] | undefined>;

/** One value of a query or form field (the first, when it was given more than once). */
function one(values: unknown, name: string): string | undefined {
  const value = (values as Query | undefined)?.[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Where a page starts: after the row whose id the previous page's Next link gave; else the first page. */
function afterOf(request: FastifyRequest): number | undefined {
  const text = one(request.query, 'after') ?? '';
  return /^[1-9]\d{0,15}$/.test(text) ? Number(text) : undefined;
}

function sendPage(reply: FastifyReply, title: string, who: SignedIn | undefined, body: Html, code = 200) {
  const signedIn = who && { orgName: who.owner.org_name, csrf: who.session.csrf };
  return reply.code(code).type('text/html; charset=utf-8').send(page({ title, signedIn, body }));
}

export function registerPages(scope: FastifyInstance, ctx: DashboardContext): void {
  const queries = new DashboardQueries(ctx.db.sqlite);

  /** The signed-in caller, or a redirect to the sign-in page (then undefined). */
  const caller = (request: FastifyRequest, reply: FastifyReply): SignedIn | undefined => {
    const who = ctx.signedIn(request);
    if (!who) reply.redirect(`${BASE}/sign-in`, 303);
    return who;
  };

  /** The caller's loan request named in the path, or a not-found page (then undefined). */
  const loanOf = (request: FastifyRequest, reply: FastifyReply, who: SignedIn): LoanRequestRow | undefined => {
    const text = (request.params as { id: string }).id;
    const loan = /^[1-9]\d{0,15}$/.test(text)
      ? ctx.repos.loanRequests.findInOrg(who.owner.org_id, Number(text))
      : undefined;
    if (!loan) sendPage(reply, 'Loan request not found', who, notice('error', MESSAGES.noAccessLoanRequest), 404);
    return loan;
  };

  scope.get('/', (request, reply) => reply.redirect(`${BASE}/${ctx.signedIn(request) ? 'loans' : 'sign-in'}`, 303));

  scope.get('/sign-in', (request, reply) => {
    if (ctx.signedIn(request)) return reply.redirect(`${BASE}/loans`, 303);
    // No session before sign-in: the cookie holds a nonce, and the form its token.
    const nonce = ctx.signInTokens.nonceFor(request.cookies[COOKIE]);
    ctx.setCookie(reply, request, nonce);
    return sendPage(reply, 'Sign in', undefined, signInForm(ctx.signInTokens.tokenFor(nonce)));
  });

  scope.post('/sign-in', (request, reply) => {
    const key = one(request.body, 'api_key')?.trim() ?? '';
    const owner = key === '' ? undefined : ctx.repos.organisations.keyOwner(hashApiKey(key));
    // The form's token was checked against the cookie (index.ts), so the cookie is there.
    if (!owner) {
      const message = key === '' ? "Enter your organisation's API key." : MESSAGES.keyInvalid;
      const form = signInForm(ctx.signInTokens.tokenFor(request.cookies[COOKIE] ?? ''));
      return sendPage(reply, 'Sign in', undefined, html`${notice('error', message)}${form}`, 401);
    }
    const session = ctx.sessions.signIn(ctx.sessionOf(request), hashApiKey(key));
    ctx.setCookie(reply, request, session.id);
    return reply.redirect(`${BASE}/loans`, 303);
  });

  scope.post('/sign-out', (request, reply) => {
    const session = ctx.sessionOf(request);
    if (session) ctx.sessions.destroy(session);
    reply.clearCookie(COOKIE, { path: BASE });
    return reply.redirect(`${BASE}/sign-in`, 303);
  });

  scope.get('/loans', (request, reply) => {
    const who = caller(request, reply);
    if (!who) return reply;
    const filters: LoanFilters = {};
    for (const name of Object.keys(FILTER_VALUES) as (keyof LoanFilters)[]) {
      const value = one(request.query, name);
      if (value) filters[name] = value;
    }
    const after = afterOf(request);
    const rows = queries.loanPage(who.owner.org_id, filters, after);
    return sendPage(reply, 'Loan requests', who, loansPage(rows, filters, after));
  });

  scope.get('/queue', (request, reply) => {
    const who = caller(request, reply);
    if (!who) return reply;
    const after = afterOf(request);
    return sendPage(reply, 'Waiting for approval', who, queuePage(queries.queuePage(who.owner.org_id, after), after));
  });

  scope.get('/borrowers', (request, reply) => {
    const who = caller(request, reply);
    if (!who) return reply;
    // `?email=`: the search's name in older links and bookmarks, read as `?search=`.
    const search = (one(request.query, 'search') ?? one(request.query, 'email'))?.trim() ?? '';
    const after = afterOf(request);
    const rows = queries.borrowerPage(who.owner.org_id, search, after);
    return sendPage(reply, 'Borrowers', who, borrowersPage(rows, search, after));
  });

  scope.get('/log', (request, reply) => {
    const who = caller(request, reply);
    if (!who) return reply;
    return sendPage(reply, 'Request log', who, logPage(ctx.requestLog?.(who.owner.org_id, LOG_ROWS)));
  });

  scope.get('/loans/:id', (request, reply) => {
    const who = caller(request, reply);
    const loan = who && loanOf(request, reply, who);
    if (!who || !loan) return reply;
    const done = one(request.query, 'approved') === '1' && notice('ok', `Approved by ${loan.approved_by}.`);
    return sendPage(reply, `Loan request ${loan.id}`, who, html`${done}${loanPage(ctx.repos, loan)}`);
  });

  scope.get('/loans/:id/approve', (request, reply) => {
    const who = caller(request, reply);
    const loan = who && loanOf(request, reply, who);
    if (!who || !loan) return reply;
    return sendPage(reply, `Approve loan request ${loan.id}`, who, approvePage(loan, who.session.csrf, ctx.now()));
  });

  scope.get('/loans/:id/preview', (request, reply) => {
    const who = caller(request, reply);
    const loan = who && loanOf(request, reply, who);
    if (!who || !loan) return reply;
    return reply.type('text/html; charset=utf-8').send(schedulePreview(request.query as Form, ctx.now()).text);
  });

  // The approval goes through the action endpoint's own path (app.ts `serve`): the contract's body
  // schema, the handler's checks and write, the same messages; only the caller says "dashboard".
  scope.post('/loans/:id/approve', async (request, reply) => {
    const who = caller(request, reply);
    const loan = who && loanOf(request, reply, who);
    if (!who || !loan) return reply;
    // The approval goes in the organisation's request log, as the endpoint's would.
    request.orgId = who.owner.org_id;
    const form = request.body as Form;
    // The Preview button (without script): the same page with the posted terms, nothing written.
    if (form.intent === 'preview') {
      return sendPage(
        reply,
        `Approve loan request ${loan.id}`,
        who,
        approvePage(loan, who.session.csrf, ctx.now(), form),
      );
    }
    let terms: Record<string, unknown>;
    try {
      terms = approvalBodyFromForm(form);
    } catch (error) {
      if (!(error instanceof FormProblem)) throw error;
      const refused = approvePage(loan, who.session.csrf, ctx.now(), form, notice('error', error.message));
      return sendPage(reply, `Approve loan request ${loan.id}`, who, refused, 400);
    }
    const outcome = await ctx.operate(
      endpointDef('approveLoanRequest'),
      {
        headers: {},
        query: { action: 'approve', 'product-id': String(loan.product_id) },
        body: terms,
        params: { id: String(loan.id) },
      },
      { ...who.owner, via: 'dashboard' },
    );
    if (outcome.status === 'success') return reply.redirect(`${BASE}/loans/${loan.id}?approved=1`, 303);
    const body = approvePage(loan, who.session.csrf, ctx.now(), form, notice('error', outcome.message));
    return sendPage(reply, `Approve loan request ${loan.id}`, who, body, outcome.http ?? 400);
  });
}

function signInForm(csrf: string): Html {
  return html`<p>Sign in with your organisation's API key (the one <code>loanctl sandbox start</code> or <code>loanctl sandbox org create</code> printed). It is checked, never shown or kept: the session remembers only its digest.</p>
<form method="post" action="${BASE}/sign-in" class="grid">
  ${csrfField(csrf)}
  <label>API key<input type="password" name="api_key" id="api_key" autocomplete="off" required autofocus></label>
  <div><button type="submit">Sign in</button></div>
</form>`;
}

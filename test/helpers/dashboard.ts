/**
 * For the dashboard's tests: a submitted loan request made through the API (as a script would),
 * and a minimal browser over `app.inject` that keeps the session cookie and reads each form's
 * token from the page, as a browser's form would send it.
 */
import type { FastifyInstance } from 'fastify';
import { call, findUserId, type Org, sampleBody, userBody } from './sandbox.js';

export interface SubmittedLoan {
  loanId: number;
  userId: number;
  email: string;
}

/** A borrower (named `firstname`), a loan request for `amount`, bank details, submitted. */
export async function seedSubmittedLoan(
  app: FastifyInstance,
  org: Org,
  options: { firstname?: string; amount?: number } = {},
): Promise<SubmittedLoan> {
  const body = userBody(options.firstname ? { firstname: options.firstname } : {});
  const user = await call(app, 'createUser', { key: org.api_key, body });
  if (user.json.status !== 'success') throw new Error(`createUser: ${user.raw}`);
  const userId = await findUserId(app, org, body.email);
  const created = await call(app, 'createLoanRequest', {
    key: org.api_key,
    params: { user_id: userId },
    productId: org.product_id,
    body: { amount: options.amount ?? 50000, purpose: 'stock for the shop' },
  });
  const loanId = (created.json.data as { id: number }).id;
  const common = { key: org.api_key, params: { id: loanId }, productId: org.product_id };
  await call(app, 'addBankDetails', { ...common, body: sampleBody('addBankDetails', org.org_id) });
  const submitted = await call(app, 'submitLoanRequest', common);
  if (submitted.json.status !== 'success') throw new Error(`submit: ${submitted.raw}`);
  return { loanId, userId, email: body.email };
}

export interface Page {
  status: number;
  body: string;
  location?: string;
  setCookie: string[];
}

/** The value of the form token in a page (the last form's, as every form of a page carries the same). */
export function csrfOf(body: string): string {
  const match = /name="token" value="([^"]+)"/.exec(body);
  if (!match?.[1]) throw new Error(`no form token in the page:\n${body.slice(0, 500)}`);
  return match[1];
}

export class InjectBrowser {
  cookie = '';

  constructor(private readonly app: FastifyInstance) {}

  async get(url: string): Promise<Page> {
    return this.request('GET', url);
  }

  async post(url: string, form: Record<string, string>): Promise<Page> {
    return this.request('POST', url, new URLSearchParams(form).toString());
  }

  /** Opens the sign-in page and signs in with `key`; the reply to the sign-in. */
  async signIn(key: string): Promise<Page> {
    const form = await this.get('/dashboard/sign-in');
    return this.post('/dashboard/sign-in', { token: csrfOf(form.body), api_key: key });
  }

  private async request(method: 'GET' | 'POST', url: string, payload?: string): Promise<Page> {
    const response = await this.app.inject({
      method,
      url,
      payload,
      headers: {
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(payload !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
    });
    const raw = response.headers['set-cookie'];
    const setCookie = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
    for (const line of setCookie) {
      const pair = line.split(';')[0] ?? '';
      this.cookie = pair.endsWith('=') ? '' : pair;
    }
    return { status: response.statusCode, body: response.body, location: response.headers.location, setCookie };
  }
}

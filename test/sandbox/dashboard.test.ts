/**
 * The lender dashboard over `app.inject` (the browser's own run is test/e2e/dashboard-browser.test.ts):
 * sign-in and its cookie, the form token on every post, one organisation's view, escaping, and an
 * approval that is the action endpoint's — same messages, same stored terms.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_IDLE_MS, SessionStore } from '../../src/sandbox/dashboard/session.js';
import { csrfOf, InjectBrowser, type SubmittedLoan, seedSubmittedLoan } from '../helpers/dashboard.js';
import { runCli } from '../helpers/run-cli.js';
import { call, type Org, openSandbox, snapshot, type TestSandbox, userBody } from '../helpers/sandbox.js';

let sandbox: TestSandbox;
let other: Org;
let loan: SubmittedLoan;
let hostile: SubmittedLoan;
let othersLoan: SubmittedLoan;

const TERMS = {
  approved_amount: '45000',
  rate: '2.5',
  tenure: '6',
  tenured_in: 'months',
  rate_type: 'simple-interest',
  frequency: 'monthly',
  grace_period: '7',
  exclude_weekends: 'on',
  note: 'Good history',
};

beforeAll(async () => {
  sandbox = await openSandbox();
  other = sandbox.addOrg('Other Lender');
  loan = await seedSubmittedLoan(sandbox.app, sandbox.org, { amount: 50000 });
  hostile = await seedSubmittedLoan(sandbox.app, sandbox.org, { firstname: '<script>alert(1)</script>' });
  othersLoan = await seedSubmittedLoan(sandbox.app, other, { firstname: 'Zainab' });
});
afterAll(() => sandbox.close());

async function signedIn(org: Org = sandbox.org): Promise<InjectBrowser> {
  const browser = new InjectBrowser(sandbox.app);
  const reply = await browser.signIn(org.api_key);
  expect(reply.status).toBe(303);
  return browser;
}

async function loanRow(id: number, org: Org = sandbox.org) {
  const list = await call(sandbox.app, 'listLoanRequests', {
    key: org.api_key,
    productId: org.product_id,
    query: { direction: 'ASC', limit: 100 },
  });
  const rows = (list.json.data as { loan_requests: Array<Record<string, unknown>> }).loan_requests;
  return rows.find((row) => row.id === id);
}

describe('signing in', () => {
  it('gives an HttpOnly, SameSite=Strict cookie scoped to /dashboard, a new one once signed in', async () => {
    const browser = new InjectBrowser(sandbox.app);
    const form = await browser.get('/dashboard/sign-in');
    const before = browser.cookie;
    expect(form.setCookie[0]).toMatch(/HttpOnly/);
    expect(form.setCookie[0]).toMatch(/SameSite=Strict/);
    expect(form.setCookie[0]).toMatch(/Path=\/dashboard/);
    const reply = await browser.post('/dashboard/sign-in', { token: csrfOf(form.body), api_key: sandbox.org.api_key });
    expect(reply.status).toBe(303);
    expect(reply.location).toBe('/dashboard/loans');
    expect(browser.cookie).not.toBe(before);
    const page = await browser.get('/dashboard/loans');
    expect(page.body).toContain('First Lender');
    expect(page.body).not.toContain(sandbox.org.api_key);
  });

  it("refuses a wrong key with the API's words and never echoes the key", async () => {
    const browser = new InjectBrowser(sandbox.app);
    const reply = await browser.signIn('lk_wrong_key_1234');
    expect(reply.status).toBe(401);
    expect(reply.body).toContain('API key is invalid');
    expect(reply.body).not.toContain('lk_wrong_key_1234');
    expect((await browser.get('/dashboard/loans')).location).toBe('/dashboard/sign-in');
  });

  it('signs out: the session no longer opens a page', async () => {
    const browser = await signedIn();
    const page = await browser.get('/dashboard/loans');
    const cookie = browser.cookie;
    await browser.post('/dashboard/sign-out', { token: csrfOf(page.body) });
    browser.cookie = cookie;
    expect((await browser.get('/dashboard/loans')).location).toBe('/dashboard/sign-in');
  });

  it('leaves the API as it was: a form-encoded body to an operation is still a 415', async () => {
    const reply = await sandbox.app.inject({
      method: 'POST',
      url: `/api/v1/loan_request/${loan.loanId}/action?action=approve&product-id=${sandbox.org.product_id}`,
      headers: { authorization: `Bearer ${sandbox.org.api_key}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(TERMS).toString(),
    });
    expect(reply.statusCode).toBe(415);
  });
});

describe('the pages', () => {
  it('lists the queue first and escapes a hostile borrower name', async () => {
    const browser = await signedIn();
    const page = await browser.get('/dashboard/loans');
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.body).not.toContain('<script>alert(1)');
    expect(page.body).toContain(`/dashboard/loans/${loan.loanId}/approve`);
    const detail = await browser.get(`/dashboard/loans/${hostile.loanId}`);
    expect(detail.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(detail.body).not.toContain('<script>alert(1)');
  });

  it("shows only its own organisation: another one's loan request is not found", async () => {
    const browser = await signedIn();
    expect((await browser.get('/dashboard/loans')).body).not.toContain('Zainab');
    const page = await browser.get(`/dashboard/loans/${othersLoan.loanId}`);
    expect(page.status).toBe(404);
    expect(page.body).toContain('You do not have access to this loan request');
    expect((await browser.get('/dashboard/borrowers')).body).not.toContain(othersLoan.email);
  });

  it('searches borrowers by e-mail', async () => {
    const browser = await signedIn();
    const page = await browser.get(`/dashboard/borrowers?search=${encodeURIComponent(loan.email)}`);
    expect(page.body).toContain(loan.email);
    expect(page.body).not.toContain(hostile.email);
  });

  it('reads ?email= of an older link or bookmark as ?search=, and shows it in the search box', async () => {
    const browser = await signedIn();
    const page = await browser.get(`/dashboard/borrowers?email=${encodeURIComponent(loan.email)}`);
    expect(page.body).toContain(loan.email);
    expect(page.body).not.toContain(hostile.email);
    expect(page.body).toContain(`name="search" value="${loan.email}"`);
  });

  it('finds borrowers by phone in any form an operator types, newest first, only its own', async () => {
    const create = async (org: Org, firstname: string, phone: string) => {
      const body = userBody({ firstname, phone });
      const created = await call(sandbox.app, 'createUser', { key: org.api_key, body });
      expect(created.json.status).toBe('success');
      return body.email;
    };
    const older = await create(sandbox.org, 'Older', '+2348031535642');
    const newer = await create(sandbox.org, 'Newer', '+2348031535642');
    const otherPhone = await create(sandbox.org, 'Elsewhere', '+2348031535643');
    const otherOrg = await create(other, 'Stranger', '+2348031535642');
    const browser = await signedIn();
    const typed = [
      '08031535642',
      '8031535642',
      '+2348031535642',
      '234 803 153 5642',
      '0803-153-5642',
      ' (0803) 153.5642 ',
    ];
    for (const search of typed) {
      const page = await browser.get(`/dashboard/borrowers?search=${encodeURIComponent(search)}`);
      const shown = [...page.body.matchAll(/<td>([^<]+@example\.com)<\/td>/g)].map((match) => match[1]);
      expect(shown, search).toEqual([newer, older]);
      expect(page.body, search).not.toContain(otherPhone);
      expect(page.body, search).not.toContain(otherOrg);
    }
    const none = await browser.get(`/dashboard/borrowers?search=${encodeURIComponent('0803 153 5649')}`);
    expect(none.body).toContain('No borrowers match.');
  });

  it("shows the organisation's own requests from the request log, and no other's", async () => {
    await call(sandbox.app, 'getProgress', {
      key: other.api_key,
      params: { id: othersLoan.loanId },
      productId: other.product_id,
    });
    const mine = `/api/v1/loan_request/${loan.loanId}/progress`;
    await call(sandbox.app, 'getProgress', {
      key: sandbox.org.api_key,
      params: { id: loan.loanId },
      productId: sandbox.org.product_id,
    });
    const browser = await signedIn();
    let page = await browser.get('/dashboard/log');
    // The log is written a moment after each reply (its writer flushes in batches).
    for (let waited = 0; !page.body.includes(mine) && waited < 10_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      page = await browser.get('/dashboard/log');
    }
    expect(page.body).toContain(mine);
    expect(page.body).not.toContain(`/api/v1/loan_request/${othersLoan.loanId}/progress`);
  });
});

describe('approving', () => {
  it('refuses a post without the form token, and changes nothing', async () => {
    const browser = await signedIn();
    const before = snapshot(sandbox.dbPath);
    const reply = await browser.post(`/dashboard/loans/${loan.loanId}/approve`, TERMS);
    expect(reply.status).toBe(403);
    expect(snapshot(sandbox.dbPath)).toEqual(before);
  });

  it("refuses another organisation's loan id, and changes nothing", async () => {
    const browser = await signedIn();
    const csrf = csrfOf((await browser.get('/dashboard/loans')).body);
    const before = snapshot(sandbox.dbPath);
    const reply = await browser.post(`/dashboard/loans/${othersLoan.loanId}/approve`, { ...TERMS, token: csrf });
    expect(reply.status).toBe(404);
    expect(snapshot(sandbox.dbPath)).toEqual(before);
  });

  it("answers bad terms with the action endpoint's own message", async () => {
    const browser = await signedIn();
    const csrf = csrfOf((await browser.get(`/dashboard/loans/${loan.loanId}/approve`)).body);
    const bad = { ...TERMS, approved_amount: '60000' };
    const reply = await browser.post(`/dashboard/loans/${loan.loanId}/approve`, { ...bad, token: csrf });
    const api = await call(sandbox.app, 'approveLoanRequest', {
      key: sandbox.org.api_key,
      params: { id: loan.loanId },
      productId: sandbox.org.product_id,
      query: { action: 'approve' },
      body: { ...TERMS, approved_amount: 60000, rate: 2.5, tenure: 6, grace_period: 7, exclude_weekends: true },
    });
    expect(reply.status).toBe(400);
    expect(api.json.message).toContain('approved_amount (must not exceed the amount requested, 50000)');
    expect(api.http).toBe(400);
    expect(reply.body).toContain(String(api.json.message));
    expect((await loanRow(loan.loanId))?.lender_status).not.toBe('approved');
  });

  describe("a yearly rate is checked by the CLI's own rule (src/input/annual-rate.ts)", () => {
    const YEARLY = { ...TERMS, rate: '', annual_rate: '24', rate_type: 'fixed-amount' };

    it('annual_rate with rate_type fixed-amount is refused, as `loan schedule --annual-rate` refuses it', async () => {
      const browser = await signedIn();
      const csrf = csrfOf((await browser.get(`/dashboard/loans/${loan.loanId}/approve`)).body);
      const before = snapshot(sandbox.dbPath);
      const reply = await browser.post(`/dashboard/loans/${loan.loanId}/approve`, { ...YEARLY, token: csrf });
      expect(reply.status).toBe(400);
      expect(reply.body).toContain(
        'annual_rate is a percentage a year; a fixed-amount rate is the interest in currency. Give that amount with rate.',
      );
      expect(snapshot(sandbox.dbPath)).toEqual(before);
      const preview = await browser.get(`/dashboard/loans/${loan.loanId}/preview?${new URLSearchParams(YEARLY)}`);
      expect(preview.body).toContain('annual_rate is a percentage a year');

      const cli = await runCli([
        'loan',
        'schedule',
        '--amount',
        '45000',
        '--annual-rate',
        '24',
        '--rate-type',
        'fixed-amount',
        '--tenure',
        '6',
        '--tenured-in',
        'months',
        '--frequency',
        'monthly',
      ]);
      expect(cli.exitCode).toBe(2);
      expect(cli.stderr).toContain(
        '--annual-rate is a percentage a year; a fixed-amount rate is the interest in currency. Give that amount with --rate.',
      );
    });

    it('an annual_rate of thirty 9s is called too large, not "not a number"', async () => {
      const browser = await signedIn();
      const csrf = csrfOf((await browser.get(`/dashboard/loans/${loan.loanId}/approve`)).body);
      const huge = { ...YEARLY, rate_type: 'simple-interest', annual_rate: '9'.repeat(30) };
      const reply = await browser.post(`/dashboard/loans/${loan.loanId}/approve`, { ...huge, token: csrf });
      expect(reply.status).toBe(400);
      expect(reply.body).toContain(`annual_rate is too large (got &quot;${'9'.repeat(30)}&quot;)`);
      expect(reply.body).not.toContain('must be a number');
    });

    it('annual_rate and rate together are refused, as the CLI refuses --annual-rate with --rate', async () => {
      const browser = await signedIn();
      const csrf = csrfOf((await browser.get(`/dashboard/loans/${loan.loanId}/approve`)).body);
      const both = { ...YEARLY, rate_type: 'simple-interest', rate: '2' };
      const reply = await browser.post(`/dashboard/loans/${loan.loanId}/approve`, { ...both, token: csrf });
      expect(reply.status).toBe(400);
      expect(reply.body).toContain('rate and annual_rate cannot be used together.');
    });
  });

  it('stores exactly the terms given, approved_by naming the dashboard sign-in', async () => {
    const browser = await signedIn();
    const form = await browser.get(`/dashboard/loans/${loan.loanId}/approve`);
    const reply = await browser.post(`/dashboard/loans/${loan.loanId}/approve`, { ...TERMS, token: csrfOf(form.body) });
    expect(reply.status).toBe(303);
    const row = await loanRow(loan.loanId);
    expect(row).toMatchObject({ lender_status: 'approved', approved_by: 'First Lender (dashboard)' });
    expect(row?.terms).toMatchObject({
      approved_amount: 45000,
      rate: 2.5,
      tenure: 6,
      tenured_in: 'months',
      rate_type: 'simple-interest',
      grace_period: 7,
      exclude_weekends: true,
      note: 'Good history',
    });
    const detail = await browser.get(reply.location ?? '');
    expect(detail.body).toContain('Approved by First Lender (dashboard).');
  });

  it("puts the approval in the organisation's request log, the form's token and the key hidden", async () => {
    const browser = new InjectBrowser(sandbox.app);
    const signIn = await browser.get('/dashboard/sign-in');
    await browser.post('/dashboard/sign-in', { token: csrfOf(signIn.body), api_key: sandbox.org.api_key });
    const form = await browser.get(`/dashboard/loans/${hostile.loanId}/approve`);
    const csrf = csrfOf(form.body);
    await browser.post(`/dashboard/loans/${hostile.loanId}/approve`, { ...TERMS, token: csrf });
    const path = `/dashboard/loans/${hostile.loanId}/approve`;
    let page = await browser.get('/dashboard/log');
    for (let waited = 0; !page.body.includes(path) && waited < 10_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      page = await browser.get('/dashboard/log');
    }
    expect(page.body).toContain(path);
    const log = new DatabaseSync(join(sandbox.dataDir, 'requests.db'), { readOnly: true });
    try {
      const bodies = log
        .prepare('SELECT request_body FROM request_log')
        .all()
        .map((row) => String(row.request_body));
      expect(bodies.join('\n')).not.toContain(csrf);
      expect(bodies.join('\n')).not.toContain(sandbox.org.api_key);
    } finally {
      log.close();
    }
  });

  it('previews without script by posting the form (the token stays out of the URL), writing nothing', async () => {
    const browser = await signedIn();
    const form = await browser.get(`/dashboard/loans/${hostile.loanId}/approve`);
    const before = snapshot(sandbox.dbPath);
    const reply = await browser.post(`/dashboard/loans/${hostile.loanId}/approve`, {
      ...TERMS,
      intent: 'preview',
      token: csrfOf(form.body),
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('6 instalments');
    expect(snapshot(sandbox.dbPath)).toEqual(before);
  });

  it('previews the schedule whose total the endpoint stores', async () => {
    const browser = await signedIn();
    const query = new URLSearchParams(TERMS).toString();
    const preview = await browser.get(`/dashboard/loans/${loan.loanId}/preview?${query}`);
    const row = await loanRow(loan.loanId);
    const total = (row as { terms: { estimated_repayment: number } }).terms.estimated_repayment;
    expect(preview.body).toContain(total.toLocaleString('en-US', { minimumFractionDigits: 2 }));
    expect(preview.body).toContain('6 instalments');
  });
});

describe("an approved loan's page", () => {
  it('shows the schedule of its own figures: the frequency whose schedule repays its estimated repayment (weekly, 72,652.69)', async () => {
    const weekly = await seedSubmittedLoan(sandbox.app, sandbox.org, { amount: 70000 });
    const approved = await call(sandbox.app, 'approveLoanRequest', {
      key: sandbox.org.api_key,
      params: { id: weekly.loanId },
      productId: sandbox.org.product_id,
      query: { action: 'approve' },
      body: {
        approved_amount: 70000,
        rate: 30 / 52,
        tenure: 12,
        tenured_in: 'weeks',
        rate_type: 'compound-interest',
        frequency: 'weekely',
      },
    });
    expect((approved.json.data as { terms: { estimated_repayment: number } }).terms.estimated_repayment).toBe(72652.69);
    const page = await (await signedIn()).get(`/dashboard/loans/${weekly.loanId}/approve`);
    expect(page.body).toContain('<option value="weekely" selected>weekly</option>');
    expect(page.body).toContain('Total repayment <strong>72,652.69</strong>');
    expect(page.body).toContain('12 instalments');
    // The instalment's columns are loan schedule's.
    expect(page.body).toContain('<th>DUE DATE</th><th class="num">PRINCIPAL</th>');
  });
});

describe('the session store', () => {
  it('forgets a session unused for 8 hours, and gives a new id at sign-in', () => {
    let now = 0;
    const store = new SessionStore(() => now);
    const earlier = store.signIn(undefined, 'digest');
    const signed = store.signIn(earlier, 'digest');
    expect(signed.id).not.toBe(earlier.id);
    expect(store.find(earlier.id)).toBeUndefined();
    now += SESSION_IDLE_MS - 1;
    expect(store.find(signed.id)?.keyHash).toBe('digest');
    now += SESSION_IDLE_MS;
    expect(store.find(signed.id)).toBeUndefined();
  });
});

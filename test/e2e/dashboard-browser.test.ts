/**
 * The lender dashboard in a real browser: Debian's chromium (installed by .ci/run with apt), driven
 * by puppeteer-core, which downloads no browser. A script makes the loan requests through the API;
 * a person signs in, opens the queue and approves one with terms; the real `loanctl loan show`
 * then reads exactly those terms. A wrong key, a cross-site form post without the token, another
 * organisation's loan id and a borrower named `<script>` are each refused or shown as text.
 * Screenshots of the main pages go to test-artifacts/dashboard/ (ignored by git). Skipped, saying
 * so, where chromium is missing.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SubmittedLoan, seedSubmittedLoan } from '../helpers/dashboard.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';

const CHROMIUM = process.env.LOANCTL_TEST_CHROMIUM ?? '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM) console.warn(`dashboard-browser: ${CHROMIUM} is not installed; skipping the browser tests.`);

const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'dashboard');

describe.skipIf(!HAS_CHROMIUM)('the dashboard in chromium', { timeout: 120_000 }, () => {
  let sandbox: CliSandbox;
  let browser: Browser;
  let page: Page;
  let loan: SubmittedLoan;
  let hostile: SubmittedLoan;
  let othersLoan: SubmittedLoan;
  const dialogs: string[] = [];
  /** Every path the browser asked for that answered 404 (a favicon, a missing asset). */
  const notFound: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    sandbox = await cliSandbox();
    loan = await seedSubmittedLoan(sandbox.app, sandbox.org, { amount: 80000 });
    hostile = await seedSubmittedLoan(sandbox.app, sandbox.org, { firstname: '<script>alert(1)</script>' });
    othersLoan = await seedSubmittedLoan(sandbox.app, sandbox.addOrg('Other Lender'), { firstname: 'Zainab' });
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      // Root in CI has no user namespace for chromium's sandbox.
      args: ['--no-sandbox', '--disable-dev-shm-usage'],
    });
    page = await browser.newPage();
    // Puppeteer's 30 s was exceeded at load average 14 on 2 cores; the tests' own limit is 120 s.
    page.setDefaultNavigationTimeout(90_000);
    await page.setViewport({ width: 1280, height: 900 });
    page.on('response', (response) => {
      // A page the test asks for may be a 404 on purpose; what the page itself loads never is.
      if (response.status() === 404 && !response.request().isNavigationRequest()) {
        notFound.push(`${new URL(response.url()).pathname} on ${page.url()}`);
      }
    });
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  const text = () => page.$eval('body', (body) => (body as unknown as { innerText: string }).innerText);

  async function submitAndWait(selector: string) {
    await Promise.all([page.waitForNavigation(), page.click(selector)]);
  }

  it('refuses a wrong key without showing it, then signs in with the right one', async () => {
    await page.goto(`${sandbox.url}/dashboard`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    await shot('sign-in');
    await page.type('#api_key', 'lk_not_a_real_key');
    await submitAndWait('button[type=submit]');
    expect(await text()).toContain('API key is invalid');
    expect(await page.content()).not.toContain('lk_not_a_real_key');

    await page.type('#api_key', sandbox.org.api_key);
    // Waiting starts before the key press: a navigation that ends before the wait begins is never seen.
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    expect(new URL(page.url()).pathname).toBe('/dashboard/loans');
    expect(await page.content()).not.toContain(sandbox.org.api_key);
    const cookies = await browser.cookies();
    expect(cookies.find((cookie) => cookie.name === 'loanctl_dashboard')).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
    });
  });

  it('lists the queue, a hostile borrower name shown as text and run nowhere', async () => {
    expect(await text()).toContain('<script>alert(1)</script>');
    expect(dialogs).toEqual([]);
    expect(await text()).not.toContain('Zainab');
    await shot('loans');
    await page.setViewport({ width: 390, height: 844 });
    await shot('loans-phone');
    await page.setViewport({ width: 1280, height: 900 });
  });

  it('approves with terms, previewed live, and loan show reads exactly those terms', async () => {
    await submitAndWait(`a[href="/dashboard/loans/${loan.loanId}/approve"]`);
    await page.click('#approved_amount', { count: 3 });
    await page.type('#approved_amount', '75000');
    await page.type('#rate', '3');
    await page.type('#tenure', '4');
    await page.select('#tenured_in', 'weeks');
    expect(await page.$eval('#rate-unit', (unit) => unit.textContent)).toBe('week');
    await page.select('#tenured_in', 'months');
    await page.select('#rate_type', 'simple-interest');
    await page.select('#frequency', 'monthly');
    await page.type('#grace_period', '5');
    await page.click('#exclude_weekends');
    await page.type('#note', 'Approved in the browser');
    await page.waitForFunction("document.querySelector('#preview').textContent.includes('4 instalments')");
    await shot('approve');
    await submitAndWait('#approve');
    expect(await text()).toContain('Approved by First Lender (dashboard).');
    await shot('loan');

    const shown = await sandbox.run(['loan', 'show', String(loan.loanId), '-o', 'json']);
    expect(shown.exitCode).toBe(0);
    const { loan_request } = shown.json<{ loan_request: Record<string, unknown> }>();
    expect(loan_request).toMatchObject({ lender_status: 'approved', approved_by: 'First Lender (dashboard)' });
    expect(loan_request.terms).toMatchObject({
      approved_amount: 75000,
      rate: 3,
      tenure: 4,
      tenured_in: 'months',
      rate_type: 'simple-interest',
      grace_period: 5,
      exclude_weekends: true,
      note: 'Approved in the browser',
    });
  });

  it("refuses another organisation's loan id", async () => {
    const reply = await page.goto(`${sandbox.url}/dashboard/loans/${othersLoan.loanId}/approve`);
    expect(reply?.status()).toBe(404);
    expect(await text()).toContain('You do not have access to this loan request');
  });

  it('refuses a form posted from another site (no token, no cookie), and approves nothing', async () => {
    const target = `${sandbox.url}/dashboard/loans/${hostile.loanId}/approve`;
    const attacker = await serveAttacker(target);
    try {
      // localhost and 127.0.0.1 are different sites: the SameSite=Strict cookie stays home.
      const port = (attacker.address() as { port: number }).port;
      await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.goto(`http://localhost:${port}/`)]);
      await page.waitForFunction("location.pathname.endsWith('/approve')");
      expect(await text()).toContain('This form did not come from this dashboard');
    } finally {
      attacker.close();
    }
    const shown = await sandbox.run(['loan', 'show', String(hostile.loanId), '-o', 'json']);
    expect(shown.json<{ loan_request: { lender_status: string } }>().loan_request.lender_status).not.toBe('approved');
  });

  it("shows the organisation's request log and its borrowers", async () => {
    await page.goto(`${sandbox.url}/dashboard/log`);
    await page.waitForFunction("document.body.innerText.includes('/submit')");
    await shot('log');
    await page.goto(`${sandbox.url}/dashboard/borrowers`);
    expect(await text()).toContain(loan.email);
    expect(await text()).not.toContain(othersLoan.email);
    await shot('borrowers');
  });

  it("finds the organisation's borrowers by a phone typed in the operator's own form", async () => {
    await page.goto(`${sandbox.url}/dashboard/borrowers`);
    // Every seeded borrower has +2348012345678, the other organisation's too (test/helpers/sandbox.ts).
    await page.type('form[role=search] input[name=search]', '0801 234-5678');
    await submitAndWait('form[role=search] button[type=submit]');
    expect(await text()).toContain(loan.email);
    expect(await text()).toContain(hostile.email);
    expect(await text()).not.toContain(othersLoan.email);
    await page.$eval('form[role=search] input[name=search]', (input) => {
      (input as unknown as { value: string }).value = '';
    });
    await page.type('form[role=search] input[name=search]', '0801 234 5679');
    await submitAndWait('form[role=search] button[type=submit]');
    expect(await text()).toContain('No borrowers match.');
  });

  it('signs out', async () => {
    await page.goto(`${sandbox.url}/dashboard/loans`);
    await submitAndWait('.sign-out button');
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    await page.goto(`${sandbox.url}/dashboard/loans`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
  });

  it('asks for nothing the sandbox does not have: no favicon or asset answered 404 on any page', () => {
    expect(notFound).toEqual([]);
  });
});

/** A page on another site that posts approval terms to the dashboard as soon as it loads. */
async function serveAttacker(target: string): Promise<Server> {
  const server = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end(`<form id="f" method="post" action="${target}">
<input name="approved_amount" value="1"><input name="rate" value="0"><input name="tenure" value="1">
<input name="tenured_in" value="months"><input name="rate_type" value="simple-interest"><input name="frequency" value="monthly">
</form><script>document.getElementById('f').submit()</script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

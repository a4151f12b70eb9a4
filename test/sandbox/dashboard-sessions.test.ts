/**
 * Dashboard sessions cannot be pushed out or kept forever: visitors who have
 * not signed in leave nothing behind (any web page can send them), one key's sign-ins never end
 * another key's sessions, and a session ends 12 hours after sign-in however much it is used.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_SESSIONS_PER_KEY,
  SESSION_IDLE_MS,
  SESSION_LIFETIME_MS,
  SessionStore,
} from '../../src/sandbox/dashboard/session.js';
import { csrfOf, InjectBrowser } from '../helpers/dashboard.js';
import { openSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await openSandbox({ observe: { requestLog: false } });
});
afterAll(async () => {
  await sandbox.close();
});

async function signedIn(): Promise<InjectBrowser> {
  const browser = new InjectBrowser(sandbox.app);
  expect((await browser.signIn(sandbox.org.api_key)).location).toBe('/dashboard/loans');
  return browser;
}

describe('visitors who have not signed in', () => {
  it('10,001 visits to the sign-in page, without cookies, do not end a signed-in session', async () => {
    const browser = await signedIn();
    // HEAD: the same route and cookie, without rendering 10,001 pages (the test's time).
    const visits = Array.from({ length: 10_001 }, () =>
      sandbox.app.inject({ method: 'HEAD', url: '/dashboard/sign-in' }),
    );
    for (const visit of await Promise.all(visits)) expect(visit.headers['set-cookie']).toBeDefined();
    const loans = await browser.get('/dashboard/loans');
    expect(loans.status).toBe(200);
    expect(loans.body).toContain('First Lender');
  }, 120_000);

  it('a sign-in needs the token of the form its own browser was given', async () => {
    const victim = new InjectBrowser(sandbox.app);
    await victim.get('/dashboard/sign-in');
    // Another page's form: a token made for another browser's cookie, or none.
    const attacker = new InjectBrowser(sandbox.app);
    const theirs = csrfOf((await attacker.get('/dashboard/sign-in')).body);
    for (const token of [theirs, '']) {
      const reply = await victim.post('/dashboard/sign-in', { token, api_key: sandbox.org.api_key });
      expect(reply.status).toBe(403);
    }
    expect((await victim.get('/dashboard/loans')).location).toBe('/dashboard/sign-in');
  });

  it('two tabs of the sign-in page both sign in', async () => {
    const browser = new InjectBrowser(sandbox.app);
    const first = csrfOf((await browser.get('/dashboard/sign-in')).body);
    await browser.get('/dashboard/sign-in');
    const reply = await browser.post('/dashboard/sign-in', { token: first, api_key: sandbox.org.api_key });
    expect(reply.location).toBe('/dashboard/loans');
  });
});

describe('the session store', () => {
  it('ends a session 12 hours after sign-in, even one used every hour', () => {
    let now = 0;
    const store = new SessionStore(() => now);
    const session = store.signIn(undefined, 'digest');
    while (now + 3_600_000 < SESSION_LIFETIME_MS) {
      now += 3_600_000;
      expect(store.find(session.id)).toBeDefined();
    }
    now = SESSION_LIFETIME_MS;
    expect(store.find(session.id)).toBeUndefined();
    expect(SESSION_IDLE_MS).toBeLessThan(SESSION_LIFETIME_MS);
  });

  it("one key's sign-ins end only its own oldest sessions, never another key's", () => {
    const store = new SessionStore(() => 0);
    const other = store.signIn(undefined, 'other key');
    const first = store.signIn(undefined, 'busy key');
    for (let index = 0; index < MAX_SESSIONS_PER_KEY * 10; index++) store.signIn(undefined, 'busy key');
    expect(store.find(other.id)?.keyHash).toBe('other key');
    expect(store.find(first.id)).toBeUndefined();
    expect(store.size).toBe(MAX_SESSIONS_PER_KEY + 1);
  });

  it('forgets ended sessions when another signs in', () => {
    let now = 0;
    const store = new SessionStore(() => now);
    for (let index = 0; index < 50; index++) store.signIn(undefined, `key ${index}`);
    now = SESSION_IDLE_MS;
    store.signIn(undefined, 'late key');
    expect(store.size).toBe(1);
  });
});

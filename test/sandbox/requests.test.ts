/**
 * Asserting on what the sandbox received, the three ways a test suite asks: the handle of
 * `startSandbox()`, `GET /__sandbox/requests` under the control plane's own key, and (in
 * test/e2e/sandbox-verify.test.ts) `loanctl sandbox verify`. Every request is visible the moment
 * its reply has been sent, though the log commits in batches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateRunFile } from '../../src/sandbox/control/run-file.js';
import { type Sandbox, startSandbox } from '../../src/sandbox-api.js';
import { runCli } from '../helpers/run-cli.js';
import { openSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.stop();
});

const ADA = {
  firstname: 'Ada',
  lastname: 'Obi',
  email: 'ada@example.com',
  password: 'secret-pass',
  phone: '+2348012345678',
  gender: 'female',
};

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const reply = await fetch(`${sandbox.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json', ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { http: reply.status, text: await reply.text(), headers: reply.headers };
}

async function control(query: string, key = sandbox.controlKey) {
  const reply = await fetch(`${sandbox.url}/__sandbox/requests${query}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return { http: reply.status, body: (await reply.json()) as { status: string; message: string; data?: unknown } };
}

describe('the handle: requests() and expectRequest()', () => {
  it('sees a request at once after its reply, filtered by method, path glob, status and since', async () => {
    const since = new Date();
    expect((await api('POST', '/user', { ...ADA, email: 'seen@example.com' })).http).toBe(200);
    // Well inside the log's 200 ms batch: without flush-on-read this finds nothing.
    const posts = await sandbox.requests({ method: 'POST', path: '/api/v1/user', since });
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ method: 'POST', path: '/api/v1/user', http: 200, status: 'success' });
    expect(posts[0]?.request_body).toContain('seen@example.com');
    expect(posts[0]?.request_body).not.toContain('secret-pass');

    await api('GET', '/user/999999/loan_request', undefined);
    expect(await sandbox.requests({ path: '/api/v1/user/*/loan_request', since })).toHaveLength(1);
    expect(await sandbox.requests({ status: '4xx', since })).toHaveLength(1);
    expect(await sandbox.requests({ status: 'success', since })).toHaveLength(1);
  });

  it('expectRequest holds, and otherwise fails naming what came instead', async () => {
    const since = new Date();
    await api('POST', '/user', { ...ADA, email: 'once@example.com' });
    await sandbox.expectRequest({ method: 'POST', path: '/api/v1/user', since });
    await sandbox.expectRequest({ method: 'POST', path: '/api/v1/user', since, count: 1 });
    const failure = await sandbox.expectRequest({ method: 'POST', path: '/api/v1/users', since }).catch((e) => e);
    expect(failure).toBeInstanceOf(Error);
    expect(failure.message).toContain('Expected at least 1 request matching POST /api/v1/users');
    expect(failure.message).toContain('found 0');
    expect(failure.message).toMatch(/Nearest other requests:\n {2}\S+ POST \/api\/v1\/user → 200 success/);
    const twice = await sandbox
      .expectRequest({ method: 'POST', path: '/api/v1/user', since, count: 2 })
      .catch((e) => e);
    expect(twice.message).toContain('Expected exactly 2 requests matching POST /api/v1/user');
    expect(twice.message).toContain('found 1.\nMatched:');
  });

  it('a bad status is refused with what to give', async () => {
    await expect(sandbox.requests({ status: 'teapot' })).rejects.toThrow(/status "teapot" is not one/);
  });
});

describe('GET /__sandbox/requests', () => {
  it("answers under the control plane's key, not an organisation's, and is not in the log itself", async () => {
    const since = new Date().toISOString();
    await api('GET', '/user');
    const { http, body } = await control(`?method=GET&path=/api/v1/user&since=${encodeURIComponent(since)}`);
    expect(http).toBe(200);
    expect(body.status).toBe('success');
    expect(body.data).toHaveLength(1);
    expect((await control('', sandbox.apiKey)).http).toBe(401);
    expect((await control('', sandbox.apiKey)).body.message).toContain('does not open the control plane');
    expect((await control('?status=nope')).http).toBe(400);
    expect(await sandbox.requests({ path: '/__sandbox/**' })).toEqual([]);
  });

  it('takes since as a duration back from now', async () => {
    await api('GET', '/user?pages=1');
    const { body } = await control('?since=1m&method=GET');
    expect((body.data as Array<{ query: string }>).some((row) => row.query === 'pages=1')).toBe(true);
  });
});

describe('Prefer: one-off outcomes for one request', () => {
  it('code=503 answers this request alone, bare; the log records that it was asked for', async () => {
    const since = new Date();
    const asked = await api('GET', '/user', undefined, { prefer: 'code=503' });
    expect(asked.http).toBe(503);
    expect(asked.headers.get('preference-applied')).toBe('code=503');
    expect((await api('GET', '/user')).http).toBe(200);
    const [entry] = await sandbox.requests({ status: 503, since });
    expect(entry).toMatchObject({ http: 503, prefer: 'code=503', org_id: sandbox.orgId });
    expect(entry?.why).toContain('as its Prefer header asked (code=503)');
  });

  it('envelope=error answers HTTP 200 with the error envelope; with code, that code', async () => {
    const plain = await api('GET', '/user', undefined, { prefer: 'envelope=error' });
    expect(plain.http).toBe(200);
    expect(JSON.parse(plain.text)).toEqual({ status: 'error', message: expect.any(String) });
    const coded = await api('POST', '/user', ADA, { prefer: 'code=500, envelope=error' });
    expect(coded.http).toBe(500);
    expect(JSON.parse(coded.text).status).toBe('error');
    // Nothing was created: the asked-for failure answered before the handler.
    expect(await sandbox.requests({ method: 'POST', status: 'success', path: '/api/v1/user' })).not.toContainEqual(
      expect.objectContaining({ request_body: expect.stringContaining('"ada@example.com"') }),
    );
  });

  it('latency=300ms waits, then serves the request as usual', async () => {
    const started = performance.now();
    const reply = await api('GET', '/user', undefined, { prefer: 'latency=300ms' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(reply.http).toBe(200);
    expect(JSON.parse(reply.text).status).toBe('success');
  });

  it('drop closes the connection without a reply, logged as dropped', async () => {
    const since = new Date();
    await expect(api('GET', '/user', undefined, { prefer: 'drop' })).rejects.toThrow();
    const [entry] = await sandbox.requests({ since, path: '/api/v1/user' });
    expect(entry).toMatchObject({ ended: 'dropped', http: 444, prefer: 'drop' });
  });

  it('needs a valid key first, and names a value it cannot take', async () => {
    const stranger = await fetch(`${sandbox.url}/api/v1/user`, { headers: { prefer: 'code=503' } });
    expect(stranger.status).toBe(401);
    const bad = await api('GET', '/user', undefined, { prefer: 'code=abc' });
    expect(bad.http).toBe(400);
    expect(JSON.parse(bad.text).message).toBe(
      'Prefer header: code=abc: give an HTTP status from 200 to 599, e.g. code=503',
    );
    // Preferences of other names are ignored (RFC 7240).
    expect((await api('GET', '/user', undefined, { prefer: 'return=minimal' })).http).toBe(200);
  });
});

describe('another process reading a running sandbox (sandbox verify, sandbox logs)', () => {
  // A batch that waits a minute: only the flush these readers ask for can show them the request.
  let slow: TestSandbox;
  beforeAll(async () => {
    slow = await openSandbox({ listen: true, observe: { requestLog: { flushMs: 60_000 } } });
    updateRunFile(slow.dataDir, { pid: process.pid, started_at: new Date().toISOString(), url: slow.url });
  });
  afterAll(async () => {
    await slow.close();
  });

  it('sees a request answered a moment ago, though its batch is not yet committed', async () => {
    const reply = await fetch(`${slow.url}/api/v1/user`, { headers: { authorization: `Bearer ${slow.org.api_key}` } });
    expect(reply.status).toBe(200);
    const verify = await runCli(['sandbox', 'verify', '--data-dir', slow.dataDir, '--method', 'GET', '--count', '1']);
    expect(verify.exitCode, verify.stderr).toBe(0);
    const logs = await runCli(['sandbox', 'logs', '--data-dir', slow.dataDir, '-o', 'json']);
    expect(JSON.parse(logs.stdout)).toEqual([
      expect.objectContaining({ method: 'GET', path: '/api/v1/user', http: 200 }),
    ]);
  });

  it('verify exits 1 with the difference, and 2 for a status that is not one', async () => {
    const wrong = await runCli(['sandbox', 'verify', '--data-dir', slow.dataDir, '--method', 'DELETE']);
    expect(wrong.exitCode).toBe(1);
    expect(wrong.stderr).toContain('Expected at least 1 request matching DELETE any path, found 0.');
    const bad = await runCli(['sandbox', 'verify', '--data-dir', slow.dataDir, '--status', 'teapot']);
    expect(bad.exitCode).toBe(2);
  });
});

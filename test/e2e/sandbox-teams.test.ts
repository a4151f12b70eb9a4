/**
 * What a team's test suite does from outside the sandbox's process, as real processes: a detached
 * sandbox, a request, then at once `sandbox verify` and `sandbox logs` from other processes (the
 * request is there, though the log commits in batches); `verify` exits 1 with the difference when
 * it does not hold; `sandbox proxy` prints its summary when stopped, and `sandbox logs
 * --violations` shows each break.
 */
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUCCESS_EXAMPLES } from '../../src/sandbox/openapi-examples.js';
import { tempDir } from '../helpers/sandbox.js';
import { assertBuilt, BIN, isolatedEnv, loanctl } from '../helpers/sandbox-process.js';
import { json, type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';

const env = isolatedEnv();

describe('a detached sandbox, asked from other processes', () => {
  const dataDir = tempDir('loanctl-teams-');
  let started: { url: string; api_key: string; control_key: string; product_id: number };
  beforeAll(async () => {
    assertBuilt();
    const start = await loanctl(
      ['sandbox', 'start', '--detach', '--port', '0', '--data-dir', dataDir, '-o', 'json'],
      env,
    );
    expect(start.exitCode, String(start.stderr)).toBe(0);
    started = JSON.parse(String(start.stdout));
  });
  afterAll(async () => {
    await loanctl(['sandbox', 'stop', '--data-dir', dataDir], env);
  });

  it('prints its control key beside the API key, and the control plane answers to it', async () => {
    expect(started.control_key).toMatch(/^sk_sandbox_control_\w{32}$/);
    const reply = await fetch(`${started.url}/__sandbox/requests`, {
      headers: { authorization: `Bearer ${started.control_key}` },
    });
    expect(reply.status).toBe(200);
  });

  it('verify and logs see a request the moment its reply has come; verify says what differs', async () => {
    const reply = await fetch(`${started.url}/api/v1/user?pages=1`, {
      headers: { authorization: `Bearer ${started.api_key}` },
    });
    expect(reply.status).toBe(200);
    const verified = await loanctl(
      ['sandbox', 'verify', '--data-dir', dataDir, '--method', 'GET', '--path', '/api/v1/user', '--count', '1'],
      env,
    );
    expect(verified.exitCode, String(verified.stderr)).toBe(0);
    expect(String(verified.stderr)).toContain('1 matching GET /api/v1/user');

    const logs = await loanctl(['sandbox', 'logs', '--data-dir', dataDir, '-o', 'json'], env);
    expect(JSON.parse(String(logs.stdout)).at(-1)).toMatchObject({
      method: 'GET',
      path: '/api/v1/user',
      query: 'pages=1',
    });

    const wrong = await loanctl(
      ['sandbox', 'verify', '--data-dir', dataDir, '--method', 'POST', '--path', '/api/v1/user', '--count', '2'],
      env,
    );
    expect(wrong.exitCode).toBe(1);
    expect(String(wrong.stderr)).toContain('Expected exactly 2 requests matching POST /api/v1/user, found 0.');
    expect(String(wrong.stderr)).toMatch(/Nearest other requests:\n {2}\S+ GET \/api\/v1\/user\?pages=1 → 200 success/);
    expect(String(wrong.stderr)).not.toContain(started.api_key);
  });
});

describe('sandbox proxy as a process', () => {
  let upstream: ScriptedServer;
  beforeAll(async () => {
    assertBuilt();
    upstream = await scriptedServer();
    // The sandbox's own user list item, with a text id: one break.
    const item = { ...(SUCCESS_EXAMPLES.listUsers.data as object[])[0], id: 'one' };
    upstream.script((_req, res) => json(res, 200, JSON.stringify({ status: 'success', message: 'ok', data: [item] })));
  });
  afterAll(async () => {
    await upstream.close();
  });

  it('prints a summary when it stops; sandbox logs --violations shows each break', async () => {
    const dataDir = tempDir('loanctl-proxy-');
    const child = execa(
      process.execPath,
      [BIN, 'sandbox', 'proxy', '--upstream', upstream.url, '--port', '0', '--data-dir', dataDir, '-o', 'json'],
      { env, extendEnv: false, stdin: 'ignore', reject: false, buffer: { stdout: false } },
    );
    const first = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('sandbox proxy printed nothing in 25 s')), 25_000);
      createInterface({ input: child.stdout }).once('line', (line) => {
        clearTimeout(timer);
        resolve(line);
      });
    });
    const { url } = JSON.parse(first) as { url: string };
    const reply = await fetch(`${url}/api/v1/user`, { headers: { authorization: 'Bearer sk_test_TEAM_CALLER_99' } });
    expect(reply.status).toBe(200);

    const logs = await loanctl(['sandbox', 'logs', '--violations', '--data-dir', dataDir, '-o', 'table'], env);
    expect(logs.exitCode, String(logs.stderr)).toBe(0);
    expect(String(logs.stdout)).toContain('reply data[0].id: a number, came "one"');
    expect(String(logs.stdout)).not.toContain('sk_test_TEAM_CALLER_99');

    child.kill('SIGTERM');
    const ended = await child;
    expect(ended.exitCode).toBe(0);
    expect(String(ended.stderr)).toContain('Proxy stopped: 1 request forwarded, 1 broke the contract:');
    expect(String(ended.stderr)).toContain('1 × listUsers reply data[0].id: the contract says a number');
  });
});

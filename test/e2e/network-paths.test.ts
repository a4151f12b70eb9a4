/**
 * The networks operators sit on, through the real built CLI (a process: NODE_EXTRA_CA_CERTS and
 * the proxy variables are read at start-up): a real local forward proxy
 * (../helpers/forward-proxy.ts), real https servers whose certificates come from the test's own CA
 * (../helpers/tls-certs.ts), and the plain-http sandbox behind an https:// base URL. Each case checks
 * the exit code, the one line on stderr, and what reached the proxy or the server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, type RunOptions, run } from '../helpers/cli.js';
import { type ForwardProxy, forwardProxy, type TlsApi, tlsApi } from '../helpers/forward-proxy.js';
import { closedPort } from '../helpers/ports.js';
import { openSandbox } from '../helpers/sandbox.js';
import { json, type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';
import { makeTestCa, type TestCa } from '../helpers/tls-certs.js';

const KEY = 'sk_live_NETWORKS_0123456789';
const CREDENTIALS = 'ops:s3cret-Pa55';

let home: string;
let ca: TestCa;
let valid: TlsApi;
let mismatch: TlsApi;
let expired: TlsApi;
let plain: ScriptedServer;
let forward: ForwardProxy;

beforeAll(async () => {
  assertBuilt();
  home = mkdtempSync(join(tmpdir(), 'loanctl-networks-'));
  ca = makeTestCa();
  [valid, mismatch, expired, plain, forward] = await Promise.all([
    tlsApi(ca.issue(['api.example.test', 'localhost'])),
    tlsApi(ca.issue(['other.example.test'])),
    tlsApi(ca.issueExpired(['localhost'])),
    scriptedServer(),
    forwardProxy(),
  ]);
  forward.route('api.example.test:443', valid.port);
  answerPlain();
});

/** The plain-http server answers a success envelope (and forgets the requests seen so far). */
function answerPlain() {
  plain.script((_req, res) => json(res, 200, { status: 'success', message: 'ok', data: { via: 'plain' } }));
}
afterAll(async () => {
  await Promise.all([valid?.close(), mismatch?.close(), expired?.close(), plain?.close(), forward?.close()]);
  ca?.remove();
  rmSync(home, { recursive: true, force: true });
});
afterEach(() => {
  forward.seen.length = 0;
  forward.refuse(undefined);
});

/** The built CLI with the test's CA trusted, no proxy, and `env` on top. */
/** `args` replace `api GET /api/v1/user`, except flags alone (`--debug`), which are added to it. */
function loanctl(baseUrl: string, env: RunOptions['env'] = {}, args: string[] = []) {
  const clean = {
    PATH: process.env.PATH ?? '',
    NO_COLOR: '1',
    HOME: home,
    LOANCTL_CONFIG_DIR: join(home, 'config'),
    LOANCTL_BASE_URL: baseUrl,
    LOANCTL_API_KEY: KEY,
    // The machine may set it to its own bundle: the test's CA alone is what these runs trust.
    NODE_EXTRA_CA_CERTS: ca.caFile,
  };
  const command = args.every((arg) => arg.startsWith('--')) ? ['api', 'GET', '/api/v1/user', ...args] : args;
  return run({ env: clean }, command, { env });
}

function expectOneLine(stderr: string) {
  // Under -o json the line has its JSON twin after it (docs/guide.md#exit-codes).
  const lines = stderr
    .trim()
    .split('\n')
    .filter((line) => !line.startsWith('{"error":'));
  expect(lines.filter((line) => !line.startsWith('loanctl: ') && !line.startsWith('  '))).toEqual([]);
  expect(stderr).not.toMatch(/\n\s+at /);
  expect(stderr).not.toContain(KEY);
}

describe('private CAs and TLS failures', () => {
  it('NODE_EXTRA_CA_CERTS makes a private CA trusted; without it the line says "certificate not trusted" and how to fix it', async () => {
    const url = `https://localhost:${valid.port}`;
    const trusted = await loanctl(url);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.json()).toMatchObject({ data: { via: 'tls' } });

    const untrusted = await loanctl(url, { NODE_EXTRA_CA_CERTS: undefined });
    expect(untrusted.code).toBe(5);
    expect(untrusted.stderr).toContain(`TLS error talking to localhost:${valid.port}: certificate not trusted`);
    expect(untrusted.stderr).toContain('NODE_EXTRA_CA_CERTS=/path/to/ca.pem');
    expect(untrusted.stderr).not.toContain('retrying');
    expectOneLine(untrusted.stderr);
  });

  it('a certificate for another name says "name mismatch" and the names it is for', async () => {
    const result = await loanctl(`https://localhost:${mismatch.port}`);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(
      `TLS error talking to localhost:${mismatch.port}: name mismatch — the certificate is for other.example.test, not localhost`,
    );
    expect(result.stderr).toContain('have the certificate reissued for localhost');
    expect(mismatch.paths).toEqual([]);
    expectOneLine(result.stderr);
  });

  it('an expired certificate says "expired" and who must renew it', async () => {
    const result = await loanctl(`https://localhost:${expired.port}`);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(`TLS error talking to localhost:${expired.port}: expired`);
    expect(result.stderr).toContain('must be renewed');
    expect(expired.paths).toEqual([]);
    expectOneLine(result.stderr);
  });

  it('an https:// base URL pointed at the plain-http sandbox says so in one line, with no retries', async () => {
    const sandbox = await openSandbox();
    try {
      await sandbox.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = sandbox.app.server.address() as AddressInfo;
      const args = ['user', 'exists', '--email', 'ada@example.com', '-o', 'json'];
      const env = { LOANCTL_API_KEY: sandbox.org.api_key, LOANCTL_PRODUCT_ID: String(sandbox.org.product_id) };
      const result = await loanctl(`https://127.0.0.1:${port}`, env, args);
      expect(result.code).toBe(5);
      expect(result.stderr).toContain(`127.0.0.1:${port} answered in plain HTTP, not TLS`);
      expect(result.stderr).toContain(`Use http://127.0.0.1:${port} as the base URL`);
      expect(result.stderr).not.toContain('retrying');
      expectOneLine(result.stderr);
      // And the URL it suggests answers.
      const fixed = await loanctl(`http://127.0.0.1:${port}`, env, args);
      expect(fixed.code, fixed.stderr).toBe(0);
      expect(fixed.stdout.trim()).toBe('false');
    } finally {
      await sandbox.close();
    }
  });
});

describe('a corporate proxy', () => {
  it('an https:// base URL goes through CONNECT host:443 with the proxy credentials', async () => {
    const result = await loanctl('https://api.example.test', {
      HTTPS_PROXY: `http://${CREDENTIALS}@127.0.0.1:${forward.port}`,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.json()).toMatchObject({ data: { via: 'tls' } });
    expect(forward.seen).toEqual([
      {
        method: 'CONNECT',
        target: 'api.example.test:443',
        proxyAuthorization: `Basic ${Buffer.from(CREDENTIALS).toString('base64')}`,
      },
    ]);
  });

  it('a host in NO_PROXY does not touch the proxy; one not in it does', async () => {
    const bypassed = await loanctl('https://api.example.test', {
      https_proxy: forward.url,
      no_proxy: 'localhost, .example.test',
    });
    // Straight to api.example.test, which only the proxy knows.
    expect(bypassed.code).toBe(5);
    expect(bypassed.stderr).toContain('Could not resolve the host name api.example.test');
    expect(forward.seen).toEqual([]);

    const proxied = await loanctl('https://api.example.test', {
      https_proxy: forward.url,
      no_proxy: 'localhost,other.test',
    });
    expect(proxied.code, proxied.stderr).toBe(0);
    expect(forward.seen.map((saw) => saw.target)).toEqual(['api.example.test:443']);
  });

  it('the sandbox on a loopback address never goes through the proxy, whatever the variables say', async () => {
    const result = await loanctl(`http://127.0.0.1:${plain.port}`, {
      HTTP_PROXY: forward.url,
      HTTPS_PROXY: forward.url,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(forward.seen).toEqual([]);
    // The same variables do take a remote host through the proxy.
    const remote = await loanctl('https://api.example.test', { HTTP_PROXY: forward.url, HTTPS_PROXY: forward.url });
    expect(remote.code, remote.stderr).toBe(0);
    expect(forward.seen).toHaveLength(1);
  });

  it('a proxy that refuses is exit 5 with a line that names it, never its credentials, and is not retried', async () => {
    forward.refuse(403);
    const result = await loanctl('https://api.example.test', {
      HTTPS_PROXY: `http://${CREDENTIALS}@127.0.0.1:${forward.port}`,
    });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(
      `The proxy 127.0.0.1:${forward.port} (HTTPS_PROXY) refused to connect to api.example.test (HTTP 403).`,
    );
    expect(forward.seen).toHaveLength(1);
    expectNoCredentials(result.stderr + result.stdout);
    expectOneLine(result.stderr);
    // --debug adds the cause's stack: still no credentials.
    const debug = await loanctl(
      'https://api.example.test',
      { HTTPS_PROXY: `http://${CREDENTIALS}@127.0.0.1:${forward.port}` },
      ['--debug'],
    );
    expect(debug.stderr).toContain('at ');
    expectNoCredentials(debug.stderr);
  });

  it('a proxy that asks for credentials (407) says where to put them', async () => {
    forward.refuse(407);
    const result = await loanctl('https://api.example.test', { HTTPS_PROXY: `http://127.0.0.1:${forward.port}` });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('(HTTP 407)');
    expect(result.stderr).toContain('give them in HTTPS_PROXY as http://USER:PASSWORD@HOST:PORT');
  });

  it('a proxy that is down is exit 5 with a line that names it, never its credentials', async () => {
    const port = await closedPort();
    const result = await loanctl('https://api.example.test', {
      HTTPS_PROXY: `http://${CREDENTIALS}@127.0.0.1:${port}`,
    });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(
      `Could not connect to the proxy 127.0.0.1:${port} (HTTPS_PROXY): connection refused.`,
    );
    expectNoCredentials(result.stderr + result.stdout);
    expectOneLine(result.stderr);
  });

  it('a proxy that answers the CONNECT and then sends what is not TLS: --timeout ends the command, naming the TLS phase, no retry', async () => {
    // A proxy built to hang the client: without the bound the command would never end, and a
    // retry that ignored --timeout would start the wait again.
    const sockets: Socket[] = [];
    const liar = createServer((socket) => {
      sockets.push(socket.on('error', () => {}));
      socket.once('data', () => socket.write('HTTP/1.1 200 Connection established\r\n\r\nxy'));
    });
    await new Promise<void>((done) => liar.listen(0, '127.0.0.1', done));
    try {
      const { port } = liar.address() as AddressInfo;
      const result = await loanctl('https://api.example.test', { HTTPS_PROXY: `http://127.0.0.1:${port}` }, [
        'api',
        'POST',
        '/api/v1/user',
        '--data',
        '{}',
        '--timeout',
        '1',
      ]);
      expect(result.code).toBe(5);
      expect(result.stderr).toContain(
        `The proxy 127.0.0.1:${port} (HTTPS_PROXY) opened a tunnel to api.example.test, but the TLS handshake through it did not finish within 1 s.`,
      );
      expect(result.stderr).not.toContain('retrying');
      // Never sent (no handshake, no request): not "may have been applied".
      expect(result.stderr).not.toContain('may or may not have been applied');
      expect(sockets).toHaveLength(1);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((done) => liar.close(() => done()));
    }
  });

  it('a SOCKS proxy is refused in one line naming the variable', async () => {
    const result = await loanctl('https://api.example.test', { HTTPS_PROXY: `socks5://${CREDENTIALS}@127.0.0.1:1080` });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(
      'HTTPS_PROXY names a socks5 proxy; loanctl can use only http:// and https:// proxies.',
    );
    expectNoCredentials(result.stderr);
  });
});

describe('base URL', () => {
  it('given with the version path (…/api/v1), requests go to /api/v1/…, never /api/v1/api/v1', async () => {
    answerPlain();
    const result = await loanctl(`http://127.0.0.1:${plain.port}/api/v1/`);
    expect(result.code, result.stderr).toBe(0);
    expect(plain.requests.map((request) => request.url)).toEqual(['/api/v1/user']);
  });
});

function expectNoCredentials(text: string) {
  expect(text).not.toContain('s3cret');
  expect(text).not.toContain(Buffer.from(CREDENTIALS).toString('base64'));
}

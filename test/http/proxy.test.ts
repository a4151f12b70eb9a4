/**
 * Proxies (src/http/proxy.ts, src/http/transport.ts): which proxy a URL goes through, as curl
 * reads HTTPS_PROXY/HTTP_PROXY/NO_PROXY, and requests through a real local forward proxy
 * (../helpers/forward-proxy.ts) to a real https server whose certificate comes from the test's
 * own CA, by both mechanisms: Node's own `proxyEnv` agents and https-proxy-agent (the path of
 * Node 22.13–22.20, forced here on Node 24).
 */
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Settings } from '../../src/config/settings.js';
import { LoanctlError } from '../../src/errors.js';
import { createApiClient } from '../../src/http/client.js';
import { bypasses, nodeHasProxyEnv, PROXY_UNUSABLE, proxyFor } from '../../src/http/proxy.js';
import { CONNECT_TIMEOUT, createTransport, type ProxyMechanism, type Transport } from '../../src/http/transport.js';
import { fakeIo } from '../helpers/fake-io.js';
import { type ForwardProxy, forwardProxy, type TlsApi, tlsApi } from '../helpers/forward-proxy.js';
import { closedPort } from '../helpers/ports.js';
import { makeTestCa, type TestCa } from '../helpers/tls-certs.js';

const API = 'https://api.example.test/api/v1/user';

describe('proxyFor: which proxy, as curl reads the variables', () => {
  const target = new URL(API);
  it('takes HTTPS_PROXY for https URLs and HTTP_PROXY for http ones, lower case first', () => {
    expect(proxyFor(target, { HTTPS_PROXY: 'http://upper:3128' })?.url.host).toBe('upper:3128');
    expect(proxyFor(target, { HTTPS_PROXY: 'http://upper:3128', https_proxy: 'http://lower:3128' })?.url.host).toBe(
      'lower:3128',
    );
    expect(proxyFor(target, { HTTP_PROXY: 'http://plain:3128' })).toBeUndefined();
    expect(proxyFor(new URL('http://api.example.test/'), { http_proxy: 'http://plain:3128' })?.url.host).toBe(
      'plain:3128',
    );
    expect(proxyFor(target, { HTTPS_PROXY: '' })).toBeUndefined();
  });

  it('reads a proxy without a scheme as http://, and names it without its credentials', () => {
    const choice = proxyFor(target, { HTTPS_PROXY: 'ops:s3cret@proxy.corp:8080' });
    expect(choice?.url.href).toBe('http://ops:s3cret@proxy.corp:8080/');
    expect(choice?.label).toBe('proxy.corp:8080 (HTTPS_PROXY)');
    expect(proxyFor(target, { https_proxy: 'https://proxy.corp' })?.label).toBe('proxy.corp:443 (https_proxy)');
  });

  it('refuses a SOCKS proxy or a value that is not a URL, naming the variable', () => {
    expect(() => proxyFor(target, { HTTPS_PROXY: 'socks5://proxy:1080' })).toThrow(
      expect.objectContaining({ code: PROXY_UNUSABLE, message: expect.stringContaining('HTTPS_PROXY names a socks5') }),
    );
    expect(() => proxyFor(target, { HTTPS_PROXY: 'http://[bad' })).toThrow(
      expect.objectContaining({ code: PROXY_UNUSABLE }),
    );
  });

  it('never proxies a loopback host (the sandbox), whatever the variables say', () => {
    for (const url of ['http://127.0.0.1:8080/', 'https://localhost/', 'http://[::1]:9/']) {
      expect(proxyFor(new URL(url), { HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1' }), url).toBeUndefined();
    }
  });

  it('NO_PROXY: *, domains with their subdomains, IPs, CIDR ranges and ports; case and spaces ignored', () => {
    const to = (url: string) => new URL(url);
    expect(bypasses('*', to(API))).toBe(true);
    for (const entry of [
      'example.test',
      '.example.test',
      '*.example.test',
      'API.Example.Test',
      ' x.org , example.test ',
    ]) {
      expect(bypasses(entry, to(API)), entry).toBe(true);
    }
    expect(bypasses('ample.test', to(API))).toBe(false);
    expect(bypasses('other.example.test', to(API))).toBe(false);
    expect(bypasses('example.test:443', to(API))).toBe(true);
    expect(bypasses('example.test:8443', to(API))).toBe(false);
    expect(bypasses('10.0.0.0/8', to('https://10.1.2.3/'))).toBe(true);
    expect(bypasses('10.0.0.0/8', to('https://11.1.2.3/'))).toBe(false);
    expect(bypasses('10.1.2.3', to('https://10.1.2.3/'))).toBe(true);
    expect(bypasses('[fd00::1]:443,fc00::/7', to('https://[fd00::2]/'))).toBe(true);
    expect(
      proxyFor(to(API), { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'example.test', no_proxy: 'other.org' }),
    ).toBeDefined();
    expect(proxyFor(to(API), { HTTPS_PROXY: 'http://p:1', no_proxy: 'example.test' })).toBeUndefined();
  });

  it("uses Node's own proxy support from 24.5 and 22.21 on, the library before", () => {
    expect(nodeHasProxyEnv('22.13.0')).toBe(false);
    expect(nodeHasProxyEnv('22.20.0')).toBe(false);
    expect(nodeHasProxyEnv('22.21.0')).toBe(true);
    expect(nodeHasProxyEnv('23.11.0')).toBe(false);
    expect(nodeHasProxyEnv('24.4.1')).toBe(false);
    expect(nodeHasProxyEnv('24.5.0')).toBe(true);
    expect(nodeHasProxyEnv('25.0.0')).toBe(true);
  });
});

let ca: TestCa;
let api: TlsApi;
let restoreCas: () => void;
beforeAll(async () => {
  ca = makeTestCa();
  api = await tlsApi(ca.issue(['api.example.test']));
  // What NODE_EXTRA_CA_CERTS does at start-up, for this test process.
  const defaults = getCACertificates('default');
  setDefaultCACertificates([...defaults, ca.caPem]);
  restoreCas = () => setDefaultCACertificates(defaults);
});
afterAll(async () => {
  restoreCas?.();
  await api?.close();
  ca?.remove();
});

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function proxy(): Promise<ForwardProxy> {
  const made = await forwardProxy();
  made.route('api.example.test:443', api.port);
  cleanups.push(() => made.close());
  return made;
}

function transport(mechanism: ProxyMechanism, env: Record<string, string>, connectTimeoutMs = 5_000): Transport {
  const made = createTransport({ connections: 4, connectTimeoutMs, env, proxyMechanism: mechanism });
  cleanups.push(() => made.close({ abort: true }));
  return made;
}

const get = (through: Transport, url = API) =>
  through.send({ method: 'GET', url: new URL(url), headers: {}, body: undefined, timeoutMs: 5_000 });

async function rejection(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error('expected a failure');
}

describe.each(['node', 'library'] as const)('through a real forward proxy (%s)', (mechanism) => {
  it('an https URL goes through CONNECT host:443 with the credentials of the proxy URL, then TLS to the API', async () => {
    const forward = await proxy();
    const through = transport(mechanism, { HTTPS_PROXY: `http://ops:s3cret@127.0.0.1:${forward.port}` });
    const reply = await get(through);
    expect(reply.statusCode).toBe(200);
    expect(JSON.parse(reply.text).data).toEqual({ via: 'tls' });
    expect(forward.seen).toEqual([
      {
        method: 'CONNECT',
        target: 'api.example.test:443',
        proxyAuthorization: `Basic ${Buffer.from('ops:s3cret').toString('base64')}`,
      },
    ]);
    // The tunnel is kept alive: a second request opens no second CONNECT.
    await get(through);
    expect(forward.seen).toHaveLength(1);
    expect(api.paths.at(-1)).toBe('/api/v1/user');
  });

  it('the connect timeout ends with the TLS handshake through the tunnel, not with the reply', async () => {
    const forward = await proxy();
    api.delay(700);
    cleanups.push(() => api.delay(0));
    const reply = await get(transport(mechanism, { HTTPS_PROXY: forward.url }, 400));
    expect(reply.statusCode).toBe(200);
  });

  it('a host in NO_PROXY does not touch the proxy', async () => {
    const forward = await proxy();
    const through = transport(mechanism, { HTTPS_PROXY: forward.url, NO_PROXY: 'localhost,.example.test' });
    const error = await rejection(get(through));
    // Looked up directly, and found nowhere: ENOTFOUND from a resolver, EAI_AGAIN where there is
    // no network to reach one (npm test needs none).
    expect(['ENOTFOUND', 'EAI_AGAIN']).toContain(error.code);
    expect(forward.seen).toEqual([]);
  });

  it('a proxy that refuses the tunnel fails with its status and label, never its credentials', async () => {
    const forward = await proxy();
    forward.refuse(407);
    const through = transport(mechanism, { HTTPS_PROXY: `http://ops:s3cret@127.0.0.1:${forward.port}` });
    const error = await rejection(get(through));
    expect(error).toMatchObject({
      code: 'ERR_PROXY_TUNNEL',
      proxy: { label: `127.0.0.1:${forward.port} (HTTPS_PROXY)`, variable: 'HTTPS_PROXY' },
    });
    expect(String(error.message)).toContain('407');
    expect(forward.seen).toHaveLength(1);
  });

  it('a proxy that is down fails with ECONNREFUSED and its label', async () => {
    const port = await closedPort();
    const error = await rejection(get(transport(mechanism, { https_proxy: `127.0.0.1:${port}` })));
    expect(error).toMatchObject({
      code: 'ECONNREFUSED',
      proxy: { label: `127.0.0.1:${port} (https_proxy)`, variable: 'https_proxy' },
    });
  });

  it('a proxy that never answers the CONNECT is a connect timeout', async () => {
    const { createServer } = await import('node:net');
    const sockets: import('node:net').Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket.on('error', () => {})));
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    cleanups.push(() => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((done) => silent.close(() => done()));
    });
    const port = (silent.address() as { port: number }).port;
    const through = transport(mechanism, { HTTPS_PROXY: `http://127.0.0.1:${port}` }, 300);
    const error = await rejection(get(through));
    expect(error).toMatchObject({
      code: CONNECT_TIMEOUT,
      proxy: { label: `127.0.0.1:${port} (HTTPS_PROXY)`, variable: 'HTTPS_PROXY' },
    });
  });
  it('a proxy that answers the CONNECT, then sends bytes that are not TLS: a TLS-phase timeout, and nothing stays open', async () => {
    const liar = await lyingProxy();
    const through = createTransport({
      connections: 4,
      connectTimeoutMs: 400,
      env: { HTTPS_PROXY: `http://127.0.0.1:${liar.port}` },
      proxyMechanism: mechanism,
    });
    const error = await rejection(get(through));
    expect(error).toMatchObject({ code: CONNECT_TIMEOUT, phase: 'tls' });
    // Closing the pool closes the tunnel whose handshake never ended: left open, it would keep
    // the process from exiting.
    await through.close();
    await liar.allClosed();
  });

  it('a proxy that accepts the connection and never answers the CONNECT: a proxy-phase timeout', async () => {
    const liar = await lyingProxy({ answer: false });
    const through = transport(mechanism, { HTTPS_PROXY: `http://127.0.0.1:${liar.port}` }, 400);
    const error = await rejection(get(through));
    expect(error).toMatchObject({ code: CONNECT_TIMEOUT, phase: 'proxy' });
  });
});

/**
 * A proxy that lies: it answers `200 Connection established` (or, with `answer: false`, nothing)
 * to CONNECT, then sends two bytes that are not TLS and keeps the connection open. With
 * `answer: 'trickle'` it sends its answer one byte every 20 ms, never reaching its end; with
 * `answer: 'silent'` it answers 200 and then sends nothing at all; with `answer: 'plain'` it
 * answers 200, then the TLS hello with an HTTP error page.
 */
async function lyingProxy(options: { answer?: boolean | 'trickle' | 'silent' | 'plain' } = {}) {
  const { createServer } = await import('node:net');
  const open = new Set<import('node:net').Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    open.add(socket);
    socket.on('error', () => {});
    socket.once('close', () => open.delete(socket));
    socket.once('data', () => {
      if (options.answer === 'trickle') {
        const reply = `HTTP/1.1 200 Connection established\r\nX-Padding: ${'a'.repeat(10_000)}`;
        let sent = 0;
        const drip = setInterval(() => {
          if (socket.destroyed || sent >= reply.length) return clearInterval(drip);
          socket.write(reply[sent++] as string);
        }, 20);
        socket.once('close', () => clearInterval(drip));
      } else if (options.answer === 'silent') socket.write('HTTP/1.1 200 Connection established\r\n\r\n');
      else if (options.answer === 'plain') {
        socket.once('data', () => socket.write('HTTP/1.1 403 Forbidden\r\nContent-Length: 9\r\n\r\nForbidden'));
        socket.write('HTTP/1.1 200 Connection established\r\n\r\n');
      } else if (options.answer !== false) socket.write('HTTP/1.1 200 Connection established\r\n\r\nxy');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  cleanups.push(() => {
    for (const socket of open) socket.destroy();
    return new Promise<void>((done) => server.close(() => done()));
  });
  return {
    port: (server.address() as { port: number }).port,
    connections: () => connections,
    /** Resolves once the client has closed every connection it opened. */
    allClosed: () => vi.waitFor(() => expect(open.size).toBe(0), { timeout: 10_000, interval: 20 }),
  };
}

/** The settings of a client of an https API (whose key is a canary), giving up after `timeoutMs`. */
function httpsSettings(timeoutMs: number): Settings {
  return {
    baseUrl: 'https://api.example.test',
    baseUrlSource: 'env',
    apiKey: 'sk_live_PROXYTEST_0001',
    apiKeySource: 'env',
    timeoutMs,
  } as Settings;
}

describe('the client through a proxy (the environment it is given)', () => {
  it('--timeout bounds the request whole: no retry starts after it, and the line names the phase that never ended', async () => {
    const settings = httpsSettings(1_000);
    for (const [answer, message] of [
      [false, 'did not answer the CONNECT to api.example.test within 1 s.'],
      [true, 'opened a tunnel to api.example.test, but the TLS handshake through it did not finish within 1 s.'],
    ] as const) {
      const liar = await lyingProxy({ answer });
      const io = fakeIo();
      // Real waits between retries: a retry would be made if the deadline did not forbid it.
      const client = createApiClient(settings, { io, env: { https_proxy: `http://127.0.0.1:${liar.port}` } });
      cleanups.push(() => client.close());
      const error = await rejection(client.request('GET', '/api/v1/user'));
      expect((error as unknown as LoanctlError).exitCode).toBe(5);
      expect(error.message).toBe(`The proxy 127.0.0.1:${liar.port} (https_proxy) ${message}`);
      // Before: four attempts of a full connect timeout each, with waits between them.
      expect(liar.connections()).toBe(1);
      expect(io.stderr.text()).not.toContain('retrying');
    }
  });

  it('a proxy that trickles its CONNECT answer did not answer it, says so, and draws no listener warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    cleanups.push(() => {
      process.off('warning', onWarning);
    });
    const settings = httpsSettings(1_500);
    const liar = await lyingProxy({ answer: 'trickle' });
    const client = createApiClient(settings, { io: fakeIo(), env: { https_proxy: `http://127.0.0.1:${liar.port}` } });
    cleanups.push(() => client.close());
    const error = await rejection(client.request('GET', '/api/v1/user'));
    expect(error.message).toBe(
      `The proxy 127.0.0.1:${liar.port} (https_proxy) did not answer the CONNECT to api.example.test within 1.5 s.`,
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.map((warning) => `${warning.name}: ${warning.message}`)).toEqual([]);
  });

  it('a tunnel that answers in plain text is said to be the tunnel, naming the proxy, not the server alone', async () => {
    const settings = httpsSettings(2_000);
    const liar = await lyingProxy({ answer: 'plain' });
    const client = createApiClient(settings, { io: fakeIo(), env: { https_proxy: `http://127.0.0.1:${liar.port}` } });
    cleanups.push(() => client.close());
    const error = await rejection(client.request('GET', '/api/v1/user'));
    expect(error.message).toMatch(
      new RegExp(
        `^Through the proxy 127\\.0\\.0\\.1:${liar.port} \\(https_proxy\\), the tunnel to api\\.example\\.test answered in plain text, not TLS \\(\\w+\\): the proxy may be answering in the server's place, or the server there speaks http://\\.$`,
      ),
    );
  });

  it('a tunnel that opens, then stays silent, is a TLS handshake that did not finish, not plain HTTP', async () => {
    const settings = httpsSettings(1_000);
    const liar = await lyingProxy({ answer: 'silent' });
    const client = createApiClient(settings, { io: fakeIo(), env: { https_proxy: `http://127.0.0.1:${liar.port}` } });
    cleanups.push(() => client.close());
    const error = await rejection(client.request('GET', '/api/v1/user'));
    expect(error.message).toBe(
      `The proxy 127.0.0.1:${liar.port} (https_proxy) opened a tunnel to api.example.test, but the TLS handshake through it did not finish within 1 s.`,
    );
    expect(error.message).not.toContain('plain HTTP');
  });

  it('a proxy that cannot reach the API (502) is exit 5, naming the proxy, not retried, even for a GET', async () => {
    const forward = await proxy();
    forward.refuse(502);
    const io = fakeIo();
    const settings = httpsSettings(5_000);
    const client = createApiClient(settings, { io, env: { https_proxy: forward.url }, sleep: async () => {} });
    cleanups.push(() => client.close());
    const error = await rejection(client.request('GET', '/api/v1/user'));
    expect(error).toBeInstanceOf(LoanctlError);
    expect((error as unknown as LoanctlError).exitCode).toBe(5);
    expect(error.message).toBe(
      `The proxy 127.0.0.1:${forward.port} (https_proxy) refused to connect to api.example.test (HTTP 502).`,
    );
    expect((error as unknown as LoanctlError).hint).toContain('The proxy could not reach api.example.test');
    expect(forward.seen).toHaveLength(1);
  });
});

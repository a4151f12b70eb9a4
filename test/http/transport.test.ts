/**
 * src/http/transport.ts against real local servers: the promises the client builds on — a connect
 * timeout that covers the TLS handshake, Ctrl-C ending every request at once (queued ones too),
 * and idle kept-alive sockets closed by us before a server closes them under a request.
 */
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CONNECT_TIMEOUT, createTransport, type Transport } from '../../src/http/transport.js';
import { type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function transport(options: Partial<Parameters<typeof createTransport>[0]> = {}): Transport {
  const made = createTransport({ connections: 8, connectTimeoutMs: 5_000, ...options });
  cleanups.push(() => made.close({ abort: true }));
  return made;
}

async function server(): Promise<ScriptedServer> {
  const made = await scriptedServer();
  cleanups.push(() => made.close());
  return made;
}

/** A TCP server that accepts connections and never says a word (no TLS handshake, no reply). */
async function silentServer(): Promise<{ port: number }> {
  const sockets = new Set<Socket>();
  const tcp: Server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((done) => tcp.listen(0, '127.0.0.1', done));
  cleanups.push(
    () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        tcp.close(() => done());
      }),
  );
  const address = tcp.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { port: address.port };
}

const get = (url: string, timeoutMs = 10_000) => ({
  method: 'GET',
  url: new URL(url),
  headers: {},
  body: undefined,
  timeoutMs,
});

describe('transport', () => {
  // A request to another URL, or to the same origin with other credentials or another path, must not
  // go where the one before went (each request reads its own URL).
  it('requests alternating between servers, paths and credentials each reach their own', async () => {
    const [first, second] = [await server(), await server()];
    const pool = transport();
    const urls = [
      `${first.url}/api/v1/user?page=1`,
      `${first.url}/api/v1/user?page=2`,
      `http://ada:s%40fe@127.0.0.1:${second.port}/api/v1/loan`,
      `http://bob:other@127.0.0.1:${second.port}/api/v1/loan`,
      `${first.url}/api/v1/user?page=2`,
    ];
    for (const url of urls) expect((await pool.send(get(url))).statusCode).toBe(200);
    expect(first.requests.map(({ url }) => url)).toEqual([
      '/api/v1/user?page=1',
      '/api/v1/user?page=2',
      '/api/v1/user?page=2',
    ]);
    expect(first.requests.map(({ authorization }) => authorization)).toEqual([undefined, undefined, undefined]);
    expect(second.requests.map(({ url, authorization }) => [url, authorization])).toEqual([
      ['/api/v1/loan', `Basic ${Buffer.from('ada:s@fe').toString('base64')}`],
      ['/api/v1/loan', `Basic ${Buffer.from('bob:other').toString('base64')}`],
    ]);
  });

  it('an https server that accepts the connection but never does TLS is a connect timeout', async () => {
    const { port } = await silentServer();
    const started = Date.now();
    const failure = await transport({ connectTimeoutMs: 300 })
      .send(get(`https://127.0.0.1:${port}/`))
      .catch((error: unknown) => error);
    expect((failure as { code?: string }).code).toBe(CONNECT_TIMEOUT);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a connection not made when both timers end together is a connect timeout, never a request without a reply', async () => {
    // --timeout under 10 s makes the connect timeout equal to the whole exchange's: the request
    // provably never left, so it must be reported as such (safe to repeat), not as "may have been applied".
    const { port } = await silentServer();
    const failure = await transport({ connectTimeoutMs: 300 })
      .send({ ...get(`https://127.0.0.1:${port}/`, 300), method: 'POST', body: '{}' })
      .catch((error: unknown) => error);
    expect((failure as { code?: string }).code).toBe(CONNECT_TIMEOUT);
  });

  it('an exchange not complete within its timeoutMs fails as a TimeoutError, and the timer then stops', async () => {
    const api = await server();
    api.script((_req, res) => {
      res.writeHead(200);
      res.write('half'); // headers and part of the body, then nothing
    });
    const pool = transport();
    const started = Date.now();
    const failure = await pool.send(get(api.url, 300)).catch((error: unknown) => error);
    expect((failure as Error).name).toBe('TimeoutError');
    expect(Date.now() - started).toBeLessThan(3_000);
    api.script((_req, res) => res.end('quick'));
    expect((await pool.send(get(api.url, 300))).text).toBe('quick');
  });

  it('close({ abort: true }) ends at once a request out and one still waiting for a socket', async () => {
    const api = await server();
    api.script(() => {}); // never answers
    const pool = transport({ connections: 1 });
    const first = pool.send(get(api.url)).catch((error: unknown) => error);
    const queued = pool.send(get(api.url)).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await pool.close({ abort: true });
    const failures = await Promise.all([first, queued]);
    expect(Date.now() - started).toBeLessThan(2_000);
    for (const failure of failures) expect(failure).toBeInstanceOf(Error);
    expect(api.requests).toHaveLength(1);
  });

  it('a plain close() waits for the requests out, then closes the sockets', async () => {
    const api = await server();
    api.script((_req, res) => setTimeout(() => res.end('late'), 200));
    const pool = transport();
    const reply = pool.send(get(api.url));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await pool.close();
    expect((await reply).text).toBe('late');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.openConnections()).toBe(0);
  });

  it('keeps one connection for calls in a row, and closes it once idle', async () => {
    const api = await server();
    api.script((_req, res) => res.end('ok'));
    const pool = transport({ idleSocketMs: 300 });
    await pool.send(get(api.url));
    await pool.send(get(api.url));
    expect(api.connections()).toBe(1);
    expect(api.openConnections()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(api.openConnections()).toBe(0);
  });
});

/**
 * The limits that protect a listening sandbox, driven with raw node:net sockets (what a broken or
 * hostile client sends): every reply is the API's envelope, a slow body is cut off, a connection
 * over the cap is answered, and a stopping sandbox is not held open by a slow client.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { openSandbox, type TestSandbox } from '../helpers/sandbox.js';

const LIMITS = { requestTimeoutMs: 600, headersTimeoutMs: 600, checkIntervalMs: 100, maxConnections: 8 };
let sandbox: TestSandbox;
let port: number;

beforeAll(async () => {
  sandbox = await openSandbox({ listen: true, observe: { limits: LIMITS, requestLog: { flushMs: 0 } } });
  port = Number(new URL(sandbox.url).port);
});
afterAll(async () => {
  await sandbox.close();
});

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends until it closes the connection (or `untilText` appears). */
function received(socket: Socket, untilText?: string): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (untilText !== undefined && text.includes(untilText)) resolve(text);
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(text));
  });
}

/** Sends `raw`, reads the reply until the server closes, and returns its status and envelope. */
async function exchange(raw: string | string[]): Promise<{ status: number; head: string; body: unknown }> {
  const socket = await open();
  const reply = received(socket);
  for (const part of [raw].flat()) socket.write(part);
  return parse(await reply);
}

function parse(text: string) {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const bodyText = rest.join('\r\n\r\n');
  const chunked = /transfer-encoding: chunked/i.test(head);
  const body = chunked
    ? bodyText
        .split('\r\n')
        .filter((_, index) => index % 2 === 1)
        .join('')
    : bodyText;
  return { status, head, body: body === '' ? undefined : JSON.parse(body) };
}

const auth = () => `Authorization: Bearer ${sandbox.org.api_key}\r\n`;

describe('every reply is the envelope', () => {
  it('headers too large: 431', async () => {
    const reply = await exchange(`GET /api/v1/user HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(reply.status).toBe(431);
    expect(reply.body).toEqual({ status: 'error', message: expect.stringMatching(/headers are too large/) });
  });

  it('malformed HTTP: 400', async () => {
    const reply = await exchange('THIS IS NOT HTTP\r\n\r\n');
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ status: 'error', message: expect.stringMatching(/Malformed HTTP request/) });
  });

  it('Expect: 100-continue gets 100 Continue, then the answer as an envelope', async () => {
    const body = '{"email":"x@example.com"}';
    const socket = await open();
    const reply = received(socket);
    socket.write(
      `POST /api/v1/user HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    );
    await new Promise((resolve) => socket.once('data', resolve));
    socket.write(body);
    const text = await reply;
    expect(text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
    const final = parse(text.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, ''));
    expect(final.status).toBe(400);
    expect(final.body).toMatchObject({ status: 'error', message: expect.stringMatching(/^Invalid fields/) });
  });

  it('any other Expect: 417', async () => {
    const reply = await exchange(`GET /api/v1/user HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nConnection: close\r\n\r\n`);
    expect(reply.status).toBe(417);
    expect(reply.body).toEqual({ status: 'error', message: expect.stringMatching(/Unsupported "Expect: teapot"/) });
  });

  for (const [method, path] of [
    ['POST', '/api/v1/user'],
    ['GET', '/api/v1/user'],
    ['PUT', '/api/v1/loan_request/1/submit'],
  ]) {
    it(`a text/plain body on ${method}: 415, before the key is even checked`, async () => {
      const reply = await exchange(
        `${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello`,
      );
      expect(reply.status).toBe(415);
      expect(reply.body).toEqual({ status: 'error', message: expect.stringMatching(/Unsupported Content-Type/) });
    });
  }
});

it('replies written outside the framework are in the request log too', async () => {
  await exchange('THIS IS NOT HTTP EITHER\r\n\r\n');
  const result = await runCli(['sandbox', 'logs', '--data-dir', sandbox.dataDir, '--status', '400', '-o', 'json']);
  expect(result.json<Array<{ why: string }>>().at(-1)?.why).toMatch(/^Malformed HTTP request/);
});

describe('slow and greedy clients', () => {
  it('a body that does not arrive whole in time: 408 envelope, connection closed', async () => {
    const reply = await exchange(
      `POST /api/v1/user HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"first`,
    );
    expect(reply.status).toBe(408);
    expect(reply.body).toEqual({ status: 'error', message: expect.stringMatching(/did not arrive whole in time/) });
  });

  it('a connection over the cap is not closed without a reply: it is served, the oldest idle one makes room', async () => {
    const held = await Promise.all(Array.from({ length: LIMITS.maxConnections }, () => open()));
    const first = received(held[0] as Socket);
    try {
      const reply = await exchange(`GET /api/v1/user HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`);
      expect(reply).toMatchObject({ status: 200, body: { status: 'success' } });
      expect(parse(await first)).toMatchObject({ status: 408, body: { status: 'error' } });
    } finally {
      for (const socket of held) socket.destroy();
    }
  });

  it('a slow client does not hold a stopping sandbox open', async () => {
    const own = await openSandbox({ listen: true, observe: { limits: LIMITS } });
    const socket = connect(Number(new URL(own.url).port), '127.0.0.1');
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /api/v1/user HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
    );
    const reply = received(socket);
    await own.close();
    // (Before this limit, close() waited for the client: minutes, as long as it kept sending.)
    expect(parse(await reply)).toMatchObject({ status: 408, body: { status: 'error' } });
  });
});

/**
 * src/http/transport.ts's bound on a reply body, with a small bound (the default is 32 MiB; the
 * CLI test at the real bound is test/hardening/reply-bounds.test.ts): a body that keeps coming,
 * fast or a trickle, is cut at the bound, long before the exchange's timeout, and a body within
 * the bound is read whole.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createTransport, REPLY_TOO_LARGE, type Transport } from '../../src/http/transport.js';
import { type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const LIMIT = 1_000;

function transport(): Transport {
  const made = createTransport({ connections: 2, connectTimeoutMs: 5_000, maxReplyBytes: LIMIT });
  cleanups.push(() => made.close({ abort: true }));
  return made;
}

async function server(): Promise<ScriptedServer> {
  const made = await scriptedServer();
  cleanups.push(() => made.close());
  return made;
}

const get = (url: string) => ({ method: 'GET', url: new URL(url), headers: {}, body: undefined, timeoutMs: 20_000 });

/** Writes 100 bytes every 20 ms until the client goes away, counting what it wrote by then. */
function trickle(res: ServerResponse, written: { bytes: number; closedAt?: number }) {
  res.writeHead(200, { 'content-type': 'application/json' });
  const timer = setInterval(() => {
    res.write('x'.repeat(100));
    written.bytes += 100;
  }, 20);
  res.on('close', () => {
    clearInterval(timer);
    written.closedAt = written.bytes;
  });
}

describe('the reply size bound', () => {
  it('a body of the bound is read whole; an endless trickle is cut once past it, not at the 20 s timeout', async () => {
    const http = await server();
    const body = `"${'y'.repeat(LIMIT - 2)}"`;
    const written: { bytes: number; closedAt?: number } = { bytes: 0 };
    http.script((_req, res, n) =>
      n === 0 ? res.writeHead(200, { 'content-length': String(LIMIT) }).end(body) : trickle(res, written),
    );
    expect((await transport().send(get(http.url))).text).toBe(body);
    const failure = await transport()
      .send(get(http.url))
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: REPLY_TOO_LARGE, maxBytes: LIMIT });
    // It stopped reading at the bound: the connection was closed soon past it.
    await expect.poll(() => written.closedAt).toBeDefined();
    expect(written.closedAt).toBeLessThan(3 * LIMIT);
  });

  it('a Content-Length above the bound is refused before reading the body', async () => {
    const http = await server();
    http.script((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(LIMIT * 1000) });
      res.write('{"status":'); // and nothing more: only the header can end this early
    });
    const failure = await transport()
      .send(get(http.url))
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: REPLY_TOO_LARGE });
  });
});

/**
 * Clients that pipeline `GET /openapi.json` (about 300 KB) and never read the replies: node
 * queues every reply of a connection in memory, so each connection may have at most 32 requests
 * in flight (one more is answered 429 and the connection closed), and every reply is the same
 * shared bytes (src/sandbox/limits.ts, src/sandbox/openapi-route.ts). Loopback only, bounded loops.
 */
import { readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSandbox, type TestSandbox, tempDir } from '../helpers/sandbox.js';
import { assertBuilt, isolatedEnv, type SandboxProcess, startSandboxProcess } from '../helpers/sandbox-process.js';

const IN_FLIGHT = 32;

function pipelined(port: number, count: number): string {
  return `GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`.repeat(count);
}

function opened(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('one connection that pipelines and reads', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await openSandbox({ listen: true });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it(`gets ${IN_FLIGHT} documents, then a 429 envelope, and the connection closed`, async () => {
    const port = Number(new URL(sandbox.url).port);
    const socket = await opened(port);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    const ended = new Promise((resolve) => socket.once('close', resolve));
    socket.write(pipelined(port, IN_FLIGHT + 8));
    await ended;
    const text = Buffer.concat(chunks).toString('latin1');
    expect(text.match(/HTTP\/1\.1 200 OK\r\n/g)).toHaveLength(IN_FLIGHT);
    expect(text.match(/HTTP\/1\.1 429 Too Many Requests\r\n/g)).toHaveLength(1);
    const refusal = text.slice(text.indexOf('HTTP/1.1 429'));
    expect(refusal).toMatch(/^retry-after: 1\r$/im);
    expect(refusal).toContain(
      `"message":"This connection has ${IN_FLIGHT} requests waiting for their replies, its most: read the replies before sending more"`,
    );
  });
});

describe('one connection that sends a request after each reply', () => {
  it(`is never refused, however many requests it sends (${IN_FLIGHT * 2} here)`, async () => {
    const sandbox = await openSandbox({ listen: true });
    try {
      const port = Number(new URL(sandbox.url).port);
      const socket = await opened(port);
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1');
      });
      for (let i = 0; i < IN_FLIGHT * 2; i++) {
        const before = (received.match(/HTTP\/1\.1 /g) ?? []).length;
        socket.write(
          `GET /api/v1/user HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${sandbox.org.api_key}\r\n\r\n`,
        );
        await expect.poll(() => (received.match(/HTTP\/1\.1 /g) ?? []).length, { timeout: 10_000 }).toBe(before + 1);
      }
      socket.destroy();
      expect(received.match(/HTTP\/1\.1 200 OK\r\n/g)).toHaveLength(IN_FLIGHT * 2);
    } finally {
      await sandbox.close();
    }
  });
});

describe('many connections that pipeline and never read (a real sandbox process)', () => {
  let dataDir: string;
  let running: SandboxProcess;
  beforeAll(async () => {
    assertBuilt();
    dataDir = tempDir();
    running = await startSandboxProcess(dataDir, isolatedEnv());
  });
  afterAll(async () => {
    running?.process.kill('SIGTERM');
    await running?.process;
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The sandbox's peak resident memory so far (kB). */
  const peakKb = () =>
    Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${running.process.pid}/status`, 'utf8'))?.[1]);

  it('keep the sandbox small, and a legitimate request is answered', async () => {
    const port = Number(new URL(running.line.url).port);
    // Warm: the document is built on the first request.
    expect((await fetch(`${running.line.url}/openapi.json`)).status).toBe(200);
    const before = peakKb();

    // 20 connections × 60 requests: unbounded, node would hold 1,200 copies of the document (~380 MB).
    const sockets: Socket[] = [];
    for (let connection = 0; connection < 20; connection++) {
      const socket = await opened(port);
      socket.pause(); // never read: the replies pile up on the sandbox's side
      socket.on('error', () => {});
      socket.write(pipelined(port, 60));
      sockets.push(socket);
    }
    try {
      const started = performance.now();
      const legitimate = await fetch(`${running.line.url}/api/v1/user`, {
        headers: { authorization: `Bearer ${running.line.api_key}` },
      });
      const waited = performance.now() - started;
      expect(legitimate.status).toBe(200);
      // The sandbox has read every pipelined request by now (its one thread answered this one after them).
      const grown = (peakKb() - before) / 1024;
      expect(grown, `the sandbox grew ${Math.round(grown)} MB`).toBeLessThan(150);
      expect(waited, `the legitimate request waited ${Math.round(waited)} ms`).toBeLessThan(5_000);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });
});

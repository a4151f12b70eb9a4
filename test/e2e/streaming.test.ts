/**
 * Streaming lists: `loan list --all` and `user list --all` write rows as pages arrive,
 * fetch the next page while the current one is written, and respect stdout's backpressure — so a
 * list of any length is listed in flat memory.
 *
 * A tiny node:http server plays the API, so the test decides when each page is answered:
 * - rows of page 1 are on stdout while page 2 is still held back by the server (streaming);
 * - with nobody reading stdout, the page-2 request arrives anyway (prefetch: it was sent before
 *   page 1 was written), and page 3 is not asked for (backpressure: page 1 is still being
 *   written and page 2 is already held, so loanctl waits for `drain` instead of buffering the list).
 * Nothing here depends on timing for a pass: a broken build fails by waiting in vain.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { assertBuilt, BIN, isolatedEnv } from '../helpers/sandbox-process.js';

interface Fake {
  url: string;
  /** Requests seen, as `page N` (loan list: N counted from the cursor; user list: `pages`). */
  seen: string[];
  /** Resolves when the request for this page has arrived. */
  arrived(page: number): Promise<void>;
  /** Lets the answer to this page go (pages are answered at once unless held). */
  release(page: number): void;
  close(): Promise<void>;
}

const servers: Fake[] = [];
const children: ChildProcess[] = [];
const env = isolatedEnv();
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const server of servers.splice(0)) await server.close();
});
afterAll(() => rmSync(env.HOME as string, { recursive: true, force: true }));

/**
 * A fake API with `pages` pages of `perPage` rows each (then an empty page). Loan requests are
 * numbered from 1 in ASC order, so the cursor tells which page is asked for; users by `pages`.
 */
async function fakeApi(options: { pages: number; perPage: number; hold?: number[]; fat?: number }): Promise<Fake> {
  const seen: string[] = [];
  const arrivals = new Map<number, () => void>();
  const arrivedPromises = new Map<number, Promise<void>>();
  const releases = new Map<number, () => void>();
  const held = new Map<number, Promise<void>>();
  for (const page of options.hold ?? []) {
    held.set(page, new Promise<void>((resolve) => releases.set(page, resolve)));
  }
  const arrived = (page: number) => {
    let promise = arrivedPromises.get(page);
    if (!promise) {
      promise = new Promise<void>((resolve) => arrivals.set(page, resolve));
      arrivedPromises.set(page, promise);
    }
    return promise;
  };
  const padding = 'x'.repeat(options.fat ?? 0);
  const rowsOf = <T>(page: number, make: (id: number) => T): T[] =>
    page > options.pages
      ? []
      : Array.from({ length: options.perPage }, (_, i) => make((page - 1) * options.perPage + i + 1));

  const server: Server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    let page: number;
    let data: unknown;
    if (url.pathname === '/api/v1/loan_request') {
      const cursor = Number(url.searchParams.get('cursor') ?? 0);
      page = Math.floor(cursor / options.perPage) + 1;
      const rows = rowsOf(page, (id) => ({ id, user_id: 1, amount: id * 100, purpose: `loan ${id} ${padding}` }));
      data = { loan_requests: rows, cursor: rows.at(-1)?.id ?? 0 };
    } else if (url.pathname === '/api/v1/user') {
      page = Number(url.searchParams.get('pages') ?? 1);
      data = rowsOf(page, (id) => ({ id, email: `u${id}@stream.example`, firstname: padding }));
    } else {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ status: 'error', message: 'not here', data: null }));
      return;
    }
    seen.push(`page ${page}`);
    arrived(page);
    arrivals.get(page)?.();
    await held.get(page);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ status: 'success', message: 'ok', data }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fake: Fake = {
    url: `http://127.0.0.1:${port}`,
    seen,
    arrived,
    release: (page) => releases.get(page)?.(),
    close: async () => {
      for (const release of releases.values()) release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  servers.push(fake);
  return fake;
}

/**
 * The built CLI with stdout on a pipe that nobody reads until the test says so (plain spawn:
 * execa consumes the stream itself even without buffering, which would hide backpressure).
 */
function list(fake: Fake, args: string[]): ChildProcess & { exited: Promise<number | null> } {
  assertBuilt();
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...env, LOANCTL_BASE_URL: fake.url, LOANCTL_API_KEY: 'sk_test_stream', LOANCTL_PRODUCT_ID: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      if (code !== 0) process.stderr.write(`loanctl exited ${code}: ${stderr}\n`);
      resolve(code);
    }),
  );
  children.push(child);
  return Object.assign(child, { exited });
}

/** Fails the test with `what` instead of hanging when a promise never settles. */
function within<T>(promise: Promise<T>, what: string, ms = 15_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`waited ${ms} ms in vain: ${what}`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

describe('streaming lists', () => {
  for (const format of ['ndjson', 'csv'] as const) {
    it(`loan list --all -o ${format} writes page 1's rows before page 2 has arrived`, async () => {
      const fake = await fakeApi({ pages: 3, perPage: 50, hold: [2] });
      const child = list(fake, ['loan', 'list', '--all', '--direction', 'ASC', '-o', format]);
      let stdout = '';
      let sawPageOne: () => void = () => {};
      const pageOne = new Promise<void>((resolve) => {
        sawPageOne = resolve;
      });
      const pageOneLines = format === 'csv' ? 51 : 50; // CSV: the header, then the rows
      const lineCount = () => stdout.split('\n').length - 1;
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (lineCount() >= pageOneLines) sawPageOne();
      });
      // Page 2 is held by the server: page 1's rows must come out anyway.
      await within(pageOne, 'the rows of page 1 on stdout while page 2 is held');
      expect(lineCount()).toBe(pageOneLines);
      await within(fake.arrived(2), 'the page-2 request');
      fake.release(2);
      expect(await within(child.exited, 'the list to finish')).toBe(0);
      const lines = stdout.trim().split('\n');
      expect(lines).toHaveLength(format === 'csv' ? 151 : 150);
      if (format === 'ndjson') expect(lines.map((line) => JSON.parse(line).id)).toEqual(range(1, 150));
    });
  }

  it('loan list --all asks for page 2 while page 1 is written, and waits for stdout before page 3', async () => {
    // Pages of about 1 MB, far beyond a pipe's buffer: with nobody reading, writing page 1 blocks.
    const fake = await fakeApi({ pages: 4, perPage: 1000, fat: 1000 });
    const child = list(fake, ['loan', 'list', '--all', '--direction', 'ASC', '-o', 'ndjson']);
    // Prefetch: page 2 is requested although page 1 is far from consumed (nothing has been read).
    await within(fake.arrived(2), 'the page-2 request while page 1 is unread');
    expect(fake.seen).toEqual(['page 1', 'page 2']);
    // Backpressure: page 1 waits for stdout to drain and page 2 is already held, so no page 3 yet.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(fake.seen).toEqual(['page 1', 'page 2']);

    let count = 0;
    let carry = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      const parts = (carry + chunk.toString()).split('\n');
      carry = parts.pop() ?? '';
      count += parts.length;
    });
    expect(await within(child.exited, 'the list to finish once stdout is read')).toBe(0);
    expect(count).toBe(4000);
    expect(fake.seen).toEqual(['page 1', 'page 2', 'page 3', 'page 4', 'page 5']);
  });

  it('user list --all streams the same way: page 2 asked for while page 1 is unread, page 3 not', async () => {
    const fake = await fakeApi({ pages: 3, perPage: 1000, fat: 1000 });
    const child = list(fake, ['user', 'list', '--all', '-o', 'ndjson']);
    await within(fake.arrived(2), 'the page-2 request while page 1 is unread');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(fake.seen).toEqual(['page 1', 'page 2']);
    let count = 0;
    child.stdout?.on('data', (chunk: Buffer) => {
      count += chunk.toString().split('\n').length - 1;
    });
    expect(await within(child.exited, 'the list to finish once stdout is read')).toBe(0);
    expect(count).toBe(3000);
  });
});

describe('a list walk that cannot connect', () => {
  it('the walk keeps its exit status and its one-line error, and says nothing more', async () => {
    const fake = await fakeApi({ pages: 1, perPage: 1 });
    const url = fake.url;
    await fake.close(); // nothing listens there any more: a network error, exit 5
    const child = spawn(process.execPath, [BIN, 'loan', 'list', '--all'], {
      env: { ...env, LOANCTL_BASE_URL: url, LOANCTL_API_KEY: 'sk_test_stream', LOANCTL_PRODUCT_ID: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.resume();
    const code = await within(new Promise((resolve) => child.on('close', resolve)), 'loanctl to exit');
    expect(code).toBe(5);
    // The retries, then the error, and nothing else.
    const lines = stderr.trim().split('\n');
    expect(lines.at(-1)).toMatch(/^loanctl: Could not connect to 127\.0\.0\.1:\d+: connection refused/);
    expect(lines.slice(0, -1).every((line) => line.startsWith('loanctl: connection refused; retrying'))).toBe(true);
  });
});

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/**
 * `loanctl sandbox proxy`: in front of the sandbox itself, a whole journey through every operation
 * breaks nothing; in front of a server replaying the real service's published replies, exactly the
 * breaks it should; in front of an upstream that is down, slow or sends garbage, a clear envelope,
 * never a hang; `--strict` answers a break with a 502 naming it; the CLI prints a summary when it
 * stops and `sandbox logs --violations` shows each break.
 */
import { createServer as createTcpServer, type Server } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, fillPath } from '../../src/contract/endpoints.js';
import { matchingRequests } from '../../src/sandbox/log/requests.js';
import { openLogForReading } from '../../src/sandbox/log/store.js';
import { type Envelope, type Step, walkEveryOperation } from '../../src/sandbox/openapi-example-flow.js';
import { SUCCESS_EXAMPLES } from '../../src/sandbox/openapi-examples.js';
import { type RunningProxy, startProxy } from '../../src/sandbox/proxy/server.js';
import type { Violation } from '../../src/sandbox/proxy/violations.js';
import { type Sandbox, startSandbox } from '../../src/sandbox-api.js';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/sandbox.js';
import { json, type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';

const KEY = 'sk_test_PROXYCALLER_1234';
const running: RunningProxy[] = [];
afterEach(async () => {
  for (const proxy of running.splice(0)) await proxy.close();
});

async function proxyTo(upstream: string, options: { strict?: boolean; timeoutMs?: number } = {}) {
  const dataDir = tempDir('loanctl-proxy-');
  const proxy = await startProxy({
    upstream: new URL(upstream),
    host: '127.0.0.1',
    port: 0,
    dataDir,
    strict: options.strict ?? false,
    timeoutMs: options.timeoutMs ?? 30_000,
    onError: (error) => {
      throw error;
    },
  });
  running.push(proxy);
  return { proxy, dataDir };
}

async function through(proxy: RunningProxy, method: string, path: string, body?: unknown, key = KEY) {
  const reply = await fetch(`${proxy.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { http: reply.status, text: await reply.text() };
}

/** The breaks the proxy logged, oldest request first (what `sandbox logs --violations` shows). */
function loggedBreaks(dataDir: string): Violation[] {
  const db = openLogForReading(dataDir);
  if (!db) return [];
  try {
    return matchingRequests(db, {}).flatMap((row) =>
      row.violations ? (JSON.parse(row.violations) as Violation[]) : [],
    );
  } finally {
    db.close();
  }
}

describe('in front of the sandbox itself', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await sandbox.stop();
  });

  it('a journey through every operation of the contract breaks nothing', async () => {
    const { proxy, dataDir } = await proxyTo(sandbox.url);
    const send = async (step: Step): Promise<{ http: number; envelope: Envelope }> => {
      const row = ENDPOINTS.find((endpoint) => endpoint.key === step.key);
      if (!row) throw new Error(step.key);
      const search = new URLSearchParams(step.query);
      if (row.productId) search.set('product-id', String(sandbox.productId));
      const query = search.toString();
      const reply = await through(
        proxy,
        row.method,
        `${fillPath(row.path, step.params)}${query ? `?${query}` : ''}`,
        step.body,
        sandbox.apiKey,
      );
      return { http: reply.http, envelope: JSON.parse(reply.text) };
    };
    const replies = await walkEveryOperation(send, sandbox.orgId);
    expect(Object.keys(replies).sort()).toEqual(ENDPOINTS.map((endpoint) => endpoint.key).sort());
    expect(proxy.tally.summary()).toMatch(/^\d+ requests forwarded, none broke the contract\.$/);
    await proxy.close();
    expect(loggedBreaks(dataDir)).toEqual([]);
    // Every request reached the sandbox with the caller's own key, and is in the proxy's log.
    const db = openLogForReading(dataDir);
    expect(db && matchingRequests(db, {}).length).toBeGreaterThanOrEqual(ENDPOINTS.length);
    db?.close();
  });
});

describe("in front of a server replaying the real service's published replies", () => {
  let upstream: ScriptedServer;
  beforeAll(async () => {
    upstream = await scriptedServer();
  });
  afterAll(async () => {
    await upstream.close();
  });

  /** A loan request as the real service writes it: nanosecond timestamps with a numeric offset. */
  const realLoanRequest = () => {
    const record = structuredClone((SUCCESS_EXAMPLES.createLoanRequest as { data: Record<string, unknown> }).data);
    record.created_at = '2022-02-11T09:10:25.815412395+01:00';
    record.updated_at = '2022-02-11T09:10:25.815412395+01:00';
    return record;
  };

  const REPLIES: Record<string, string> = {
    // Tolerated: errors without `data`, nanosecond timestamps, the tokenize_mono path.
    'POST /api/v1/user': '{"status":"exists","message":"An existing user has this email"}',
    'POST /api/v1/user/5/loan_request': JSON.stringify({ status: 'success', message: 'ok', data: realLoanRequest() }),
    'GET /api/v1/loan_request/7/progress':
      '{"status":"no-access","message":"You do not have access to this loan request"}',
    'POST /api/v1/loan_request/7/tokenize_mono':
      '{"status":"error","message":"Something went wrong. Please try again: mono is down"}',
    // Breaks.
    'PUT /api/v1/loan_request/7': JSON.stringify({
      status: 'success',
      message: 'updated',
      data: { ...realLoanRequest(), id: '7', amount: '5000' },
    }),
    'GET /api/v1/user': '{"status":"ok","message":"fine","data":[]}',
    'GET /api/v1/loan_request/7/guarantor': '<html><body>502 Bad Gateway</body></html>',
  };

  it('finds exactly the breaks, and none in what the contract tolerates', async () => {
    upstream.script((req, res) => {
      const reply = REPLIES[`${req.method} ${(req.url ?? '').split('?')[0]}`] ?? '{"status":"error","message":"?"}';
      if (reply.startsWith('<')) {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end(reply);
      } else json(res, reply.includes('Something went wrong') ? 500 : 200, reply);
    });
    const { proxy, dataDir } = await proxyTo(upstream.url);
    const user = {
      firstname: 'Ada',
      lastname: 'Obi',
      email: 'a@example.com',
      password: 'pw',
      phone: '+2348012345678',
      gender: 'female',
    };
    await through(proxy, 'POST', '/api/v1/user', user);
    await through(proxy, 'POST', '/api/v1/user/5/loan_request?product-id=1', { amount: 5000, purpose: 'stock' });
    await through(proxy, 'GET', '/api/v1/loan_request/7/progress?product-id=1');
    const tokenize = await through(proxy, 'POST', '/api/v1/loan_request/7/tokenize_mono');
    expect(tokenize.http).toBe(500);
    const update = await through(proxy, 'PUT', '/api/v1/loan_request/7?product-id=1', { purpose: 'new stock' });
    // Not strict: the client gets what the upstream sent.
    expect(JSON.parse(update.text).data.amount).toBe('5000');
    await through(proxy, 'GET', '/api/v1/user');
    const html = await through(proxy, 'GET', '/api/v1/loan_request/7/guarantor?product-id=1');
    expect(html).toMatchObject({ http: 502, text: '<html><body>502 Bad Gateway</body></html>' });
    // The caller's key went on to the upstream.
    expect(upstream.requests.every((request) => request.authorization === `Bearer ${KEY}`)).toBe(true);

    await proxy.close();
    const breaks = loggedBreaks(dataDir).map(
      (v) => `${v.operation} ${v.side} ${v.path}: ${v.expected} / ${v.received}`,
    );
    expect(breaks).toEqual([
      'updateLoanRequest reply data.id: a number / "7"',
      'updateLoanRequest reply data.amount: a number / "5000"',
      'listUsers reply status: one of "success", "error", "exists", "no-access" / "ok"',
      'getGuarantors reply (whole reply): the API\'s JSON envelope / HTTP 502 text/html: "<html><body>502 Bad Gateway</body></html>"',
    ]);
  });

  it('--strict answers a break with a 502 envelope naming it; a reply that keeps the contract passes', async () => {
    const { proxy } = await proxyTo(upstream.url, { strict: true });
    const broken = await through(proxy, 'GET', '/api/v1/user');
    expect(broken.http).toBe(502);
    expect(JSON.parse(broken.text)).toEqual({
      status: 'error',
      message:
        'The upstream\'s reply breaks the contract: listUsers reply status: the contract says one of "success", "error", "exists", "no-access", came "ok"; see loanctl sandbox logs --violations',
    });
    const tolerated = await through(proxy, 'POST', '/api/v1/user/5/loan_request?product-id=1', {
      amount: 5000,
      purpose: 'x',
    });
    expect(tolerated.http).toBe(200);
  });

  it('a request that breaks the contract is recorded too, and still forwarded', async () => {
    const { proxy, dataDir } = await proxyTo(upstream.url);
    await through(proxy, 'POST', '/api/v1/user/5/loan_request', { amount: 'lots' });
    await through(proxy, 'GET', '/api/v1/nothing-here');
    await proxy.close();
    const breaks = loggedBreaks(dataDir).map((v) => `${v.side} ${v.path}`);
    expect(breaks).toEqual(
      expect.arrayContaining([
        'request query.product-id',
        'request body.amount',
        'request body.purpose',
        'request (operation)',
      ]),
    );
    expect(upstream.requests.map((request) => request.url)).toContain('/api/v1/nothing-here');
  });
});

describe('an upstream that is down, slow or sends garbage: a clear envelope, never a hang', () => {
  const servers: Server[] = [];
  afterAll(() => {
    for (const server of servers) server.close();
  });
  async function tcpServer(onConnection: (socket: import('node:net').Socket) => void): Promise<string> {
    const server = createTcpServer(onConnection);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  }

  it('down: 502, the connection was refused', async () => {
    const closed = await tcpServer(() => {});
    servers.pop()?.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const { proxy } = await proxyTo(closed);
    const reply = await through(proxy, 'GET', '/api/v1/user');
    expect(reply.http).toBe(502);
    expect(JSON.parse(reply.text)).toEqual({
      status: 'error',
      message: `The upstream ${closed} refused the connection: is it running?`,
    });
  });

  it('slow: 504 once its time limit is up', async () => {
    const silent = await tcpServer(() => {});
    const { proxy } = await proxyTo(silent, { timeoutMs: 300 });
    const started = performance.now();
    const reply = await through(proxy, 'GET', '/api/v1/user');
    expect(reply.http).toBe(504);
    expect(JSON.parse(reply.text).message).toBe(
      `The upstream ${silent} did not answer within 0.3 s (loanctl sandbox proxy --timeout)`,
    );
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('garbage: 502, not HTTP; a reply cut short: 502, closed in the middle', async () => {
    const garbage = await tcpServer((socket) => socket.end('SSH-2.0-OpenSSH_9.2\r\n\r\n'));
    const cut = await tcpServer((socket) =>
      socket.once('data', () =>
        socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"status":'),
      ),
    );
    const first = await proxyTo(garbage);
    const notHttp = await through(first.proxy, 'GET', '/api/v1/user');
    expect(notHttp.http).toBe(502);
    expect(JSON.parse(notHttp.text).message).toMatch(
      new RegExp(
        `^The upstream ${garbage} (answered with something that is not HTTP|closed the connection without a complete reply)`,
      ),
    );
    const second = await proxyTo(cut);
    const short = await through(second.proxy, 'GET', '/api/v1/user');
    expect(short.http).toBe(502);
    expect(JSON.parse(short.text).message).toMatch(/closed the connection/);
  });
});

describe('loanctl sandbox proxy', () => {
  it('refuses plain http to another machine, and a URL that is not one', async () => {
    const remote = await runCli(['sandbox', 'proxy', '--upstream', 'http://api.lender.example']);
    expect(remote.exitCode).toBe(2);
    expect(remote.stderr).toContain('plain http to another machine');
    const nonsense = await runCli(['sandbox', 'proxy', '--upstream', 'not a url']);
    expect(nonsense.exitCode).toBe(2);
    expect(nonsense.stderr).toContain('is not a URL');
  });
});

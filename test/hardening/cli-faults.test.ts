/**
 * The real built CLI against a real, scripted `node:http` server on 127.0.0.1: each fault gives the exit code of docs/guide.md#exit-codes and one clear line on stderr,
 * and is retried only where docs/guide.md#network allows it — GETs, and requests that never reached the
 * server. The server counts what reaches it, which proves that a POST is not repeated.
 *
 * (test/http/client.test.ts covers the same paths in-process, against the same kind of server; this
 * file exercises the whole path: argv, settings, the built bundle, the process's exit code.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../helpers/ports.js';
import { json, type Script, type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';
import {
  assertBuilt,
  type CliResult,
  cleanEnv,
  cli,
  errorLines,
  removeTemps,
  retryNotices,
  TERMINAL_CONTROL,
} from './helpers.js';

const KEY = 'sk_live_FAULTCANARY_7c1d9e4b2a';

let env: Record<string, string>;
const servers: ScriptedServer[] = [];

beforeAll(() => {
  assertBuilt();
  env = cleanEnv({ LOANCTL_API_KEY: KEY, LOANCTL_PRODUCT_ID: '12' });
});
afterAll(async () => {
  for (const server of servers) await server.close();
  removeTemps();
});

/** A server of its own for each test (so the tests run concurrently), with the CLI's environment for it. */
async function serve(script: Script) {
  const server = await scriptedServer();
  servers.push(server);
  server.script(script);
  return { requests: server.requests, env: { ...env, LOANCTL_BASE_URL: server.url } };
}

/** A read and a write: `user list` is GET /api/v1/user, `loan tokenize 7` is POST …/7/tokenize_linker. */
const GET = ['user', 'list'];
const POST = ['loan', 'tokenize', '7'];

const ok = (data: unknown) => ({ status: 'success', message: 'ok', data });
const LOAN = { id: 7, user_id: 3, amount: 5000, purpose: 'stock', status: 'saved', lender_status: 'saved' };

/** The exit code, one error line (besides retry notices) that starts `loanctl: `, no stack, no key. */
function expectFailure(result: CliResult, code: number, line: RegExp) {
  expect(result.code, result.stderr).toBe(code);
  const lines = errorLines(result.stderr);
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^loanctl: /);
  expect(lines[0]).toMatch(line);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stdout).toBe('');
  expect(result.stdout + result.stderr).not.toContain(KEY);
}

describe.concurrent('connection refused', () => {
  it('a GET: exit 5 after 3 retries, one line naming the host', async () => {
    const port = await closedPort();
    const result = await cli(GET, { ...env, LOANCTL_BASE_URL: `http://127.0.0.1:${port}` });
    expectFailure(result, 5, new RegExp(`Could not connect to 127\\.0\\.0\\.1:${port}: connection refused\\.`));
    expect(retryNotices(result.stderr)).toHaveLength(3);
  });

  it('a POST is retried too: it never reached the server', async () => {
    const port = await closedPort();
    const result = await cli(POST, { ...env, LOANCTL_BASE_URL: `http://127.0.0.1:${port}` });
    expectFailure(result, 5, /connection refused/);
    expect(retryNotices(result.stderr)).toHaveLength(3);
  });
});

describe.concurrent('a server that hangs', () => {
  it('sends nothing back: exit 5 when --timeout runs out, not repeated', async () => {
    const server = await serve(() => {
      // never answers
    });
    const result = await cli([...GET, '--timeout', '1'], server.env);
    expectFailure(result, 5, /No complete reply from 127\.0\.0\.1:\d+ within 1 s\..*--timeout/);
    expect(server.requests).toHaveLength(1);
  });

  it('sends headers, then stalls mid-body: exit 5, and a POST is sent once', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"status":"success",');
    });
    const result = await cli([...POST, '--timeout', '1'], server.env);
    expectFailure(result, 5, /The reply from .* began but did not finish within 1 s/);
    expect(server.requests.map((r) => r.method)).toEqual(['POST']);
  });
});

describe.concurrent('503, then 200', () => {
  it('a GET is repeated and succeeds (exit 0, the data on stdout)', async () => {
    // (user list then asks for page 2, to say whether there is one: a third request, answered [].)
    const server = await serve((_req, res, n) =>
      n === 0
        ? json(res, 503, { status: 'error', message: 'busy', data: null })
        : json(res, 200, ok(n === 1 ? [{ id: 1 }] : [])),
    );
    const result = await cli(GET, server.env);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([{ id: 1 }]);
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/v1/user?pages=1',
      '/api/v1/user?pages=1',
      '/api/v1/user?pages=2',
    ]);
    expect(retryNotices(result.stderr)).toEqual([expect.stringMatching(/^loanctl: HTTP 503 from 127\.0\.0\.1:\d+;/)]);
  });

  it('a POST is not repeated (it may have been done): exit 1, one request', async () => {
    const server = await serve((_req, res, n) =>
      n === 0
        ? json(res, 503, { status: 'error', message: 'Service unavailable', data: null })
        : json(res, 200, ok(LOAN)),
    );
    const result = await cli(POST, server.env);
    expectFailure(result, 1, /The API answered with an error \(HTTP 503\): Service unavailable/);
    expect(server.requests).toHaveLength(1);
    expect(retryNotices(result.stderr)).toHaveLength(0);
  });
});

describe.concurrent('429 with Retry-After', () => {
  it('a GET waits as told, then succeeds', async () => {
    const server = await serve((_req, res, n) =>
      n === 0
        ? json(res, 429, { status: 'error', message: 'slow down', data: null }, { 'retry-after': '1' })
        : json(res, 200, ok([])),
    );
    const result = await cli(GET, server.env);
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect(retryNotices(result.stderr)).toEqual([expect.stringMatching(/HTTP 429 .*retrying in 1 s/)]);
  });

  it('a POST refused with 429 was not done, so it is sent again (exactly once more)', async () => {
    const server = await serve((_req, res, n) =>
      n === 0 ? res.writeHead(429, { 'retry-after': '1' }).end('Too Many Requests') : json(res, 200, ok(LOAN)),
    );
    const result = await cli(POST, server.env);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: 7 });
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
  });

  it('429 every time: exit 1 once the retries run out, saying to wait', async () => {
    const server = await serve((_req, res) => json(res, 429, 'rate limited', { 'retry-after': '0' }));
    const result = await cli(GET, server.env);
    expectFailure(result, 1, /limiting requests \(HTTP 429\)/);
    expect(server.requests).toHaveLength(4);
  });
});

describe.concurrent('an HTML 502 page', () => {
  const page = (res: import('node:http').ServerResponse) => {
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end('<html><head><title>502 Bad Gateway</title></head>\n<body><h1>Bad Gateway</h1></body></html>\n');
  };

  it('a GET: retried 3 times, then exit 5 in one line (no HTML dumped)', async () => {
    const server = await serve((_req, res) => page(res));
    const result = await cli(GET, server.env);
    expectFailure(result, 5, /answered HTTP 502 with an HTML page, not the API's JSON\..*LOANCTL_BASE_URL/);
    expect(result.stderr).not.toContain('<');
    expect(server.requests).toHaveLength(4);
  });

  it('a POST: exit 5, sent once', async () => {
    const server = await serve((_req, res) => page(res));
    const result = await cli(POST, server.env);
    expectFailure(result, 5, /HTTP 502 with an HTML page/);
    expect(server.requests).toHaveLength(1);
  });
});

describe.concurrent('truncated JSON', () => {
  /** Promises 400 bytes, sends part of the envelope, then drops the socket. */
  const cut = (res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' });
    res.write('{"status":"success","message":"ok","data":[{"id":1,"ema', () => res.socket?.destroy());
  };

  it('the connection dropped mid-body on a GET: repeated, then exit 5', async () => {
    const server = await serve((_req, res) => cut(res));
    const result = await cli(GET, server.env);
    expectFailure(result, 5, /The connection to 127\.0\.0\.1:\d+ failed before a complete reply/);
    expect(server.requests).toHaveLength(4);
  });

  it('the connection dropped mid-body on a POST: exit 5, not repeated (it may have been done)', async () => {
    const server = await serve((_req, res) => cut(res));
    const result = await cli(POST, server.env);
    expectFailure(result, 5, /failed before a complete reply/);
    expect(server.requests).toHaveLength(1);
  });

  it('a complete reply whose JSON is cut off: exit 5 saying so', async () => {
    const server = await serve((_req, res) => json(res, 200, '{"status":"success","message":"ok","data":[{"id":1'));
    const result = await cli(GET, server.env);
    expectFailure(result, 5, /answered HTTP 200 with JSON that is cut off or malformed/);
    expect(server.requests).toHaveLength(1);
  });
});

describe.concurrent('JSON that is not the envelope', () => {
  it.each([
    ['an object without status', { hello: 'world' }],
    ['an array', [1, 2, 3]],
    ['a string', 'success'],
    ['an unknown status', { status: 'maybe', message: 'x', data: null }],
  ])('%s: exit 5', async (_name, body) => {
    const server = await serve((_req, res) => json(res, 200, JSON.stringify(body)));
    const result = await cli(POST, server.env);
    expectFailure(result, 5, /answered HTTP 200 with JSON that is not the API envelope/);
    expect(server.requests).toHaveLength(1);
  });
});

describe.concurrent('401', () => {
  it('exit 3 with the API message and what to do; not repeated', async () => {
    const server = await serve((_req, res) =>
      json(res, 401, { status: 'error', message: 'API key is invalid.', data: null }),
    );
    const result = await cli(GET, server.env);
    expectFailure(
      result,
      3,
      /The API rejected the API key \(HTTP 401\): API key is invalid\. Check the key in LOANCTL_API_KEY/,
    );
    expect(server.requests).toHaveLength(1);
    // The key went where it belongs, and nowhere else.
    expect(server.requests[0]?.authorization).toBe(`Bearer ${KEY}`);
  });

  it('a 401 whose message echoes the key and carries control characters: still one line, key not shown', async () => {
    const server = await serve((_req, res) =>
      json(res, 401, { status: 'error', message: `bad key ${KEY}\n\u001b[31mred\u0007 \u202egnp.exe`, data: null }),
    );
    const result = await cli([...GET, '--debug'], server.env);
    expect(result.code).toBe(3);
    expect(result.stdout + result.stderr).not.toContain(KEY);
    // No terminal control: no ESC, BEL or other C0/C1 character, no bidirectional override.
    expect(result.stderr).not.toMatch(TERMINAL_CONTROL);
    expect(errorLines(result.stderr).filter((line) => line.startsWith('loanctl: '))).toHaveLength(1);
  });

  it('--raw prints the envelope as received, but never a key the server echoes', async () => {
    const server = await serve((_req, res) =>
      json(res, 200, { status: 'success', message: `hello ${KEY}`, data: [{ note: `key=${KEY}` }] }),
    );
    const result = await cli([...GET, '--raw'], server.env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout + result.stderr).not.toContain(KEY);
    expect(JSON.parse(result.stdout)).toEqual({ status: 'success', message: 'hello ***', data: [{ note: 'key=***' }] });
  });
});

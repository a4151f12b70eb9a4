/**
 * The HTTP client against a real `node:http` server on 127.0.0.1 that each test scripts
 * (../helpers/scripted-server.ts): the server records what reaches it, so a test sees the request
 * actually sent and whether it was repeated. Each test asserts what a user would notice: the exit
 * code, the one line on stderr, whether the request was repeated, and that the key never shows.
 *
 * A fake transport stands in only for faults a local server cannot produce: an unknown host name,
 * a bad certificate, a connection that is never made.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Settings } from '../../src/config/settings.js';
import { ExitCode, LoanctlError } from '../../src/errors.js';
import type { ApiClient } from '../../src/http/api-client.js';
import { type ClientOptions, createApiClient } from '../../src/http/client.js';
import { USER_AGENT } from '../../src/http/prepare.js';
import { parseRetryAfter } from '../../src/http/retry.js';
import { CONNECT_TIMEOUT, type Exchange, type Transport } from '../../src/http/transport.js';
import { type FakeIo, fakeIo } from '../helpers/fake-io.js';
import { closedPort } from '../helpers/ports.js';
import { cutOff, json, type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';

const KEY = 'sk_live_SECRETSECRET_9f8e7d';

let server: ScriptedServer;
let io: FakeIo;
let sleeps: number[];
let clients: ApiClient[];

function settings(overrides: Partial<Settings> = {}): Settings {
  return {
    profile: { name: 'prod', source: 'current' },
    baseUrl: server.url,
    baseUrlSource: 'profile',
    apiKey: KEY,
    apiKeySource: 'profile',
    productId: 12,
    productIdSource: 'profile',
    orgId: undefined,
    timeoutMs: 2_000,
    debug: false,
    dryRun: false,
    ...overrides,
  };
}

function envelope(status: string, data: unknown, message = 'ok', data1?: unknown) {
  return JSON.stringify(data1 === undefined ? { status, message, data } : { status, message, data, data1 });
}

/**
 * Retries are counted against --timeout on the real clock while these tests' waits are recorded,
 * not waited: a test that counts every retry gives a timeout a loaded machine cannot reach.
 */
const PATIENT = { timeoutMs: 120_000 };

/** A client of the test's server with its own keep-alive pool; waits between retries are recorded, not waited. */
function client(overrides: Partial<Settings> = {}, options: Partial<ClientOptions> = {}) {
  const made = createApiClient(settings(overrides), {
    io,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...options,
  });
  clients.push(made);
  return made;
}

async function failure(promise: Promise<unknown>): Promise<LoanctlError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LoanctlError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

/** The host:port of the test's server, as messages name it. */
const host = () => `127.0.0.1:${server.port}`;

beforeEach(async () => {
  server = await scriptedServer();
  io = fakeIo();
  sleeps = [];
  clients = [];
});

afterEach(async () => {
  for (const made of clients) await made.close({ abort: true });
  await server.close();
});

describe('HTTP client: success and the request it sends', () => {
  it('fills the path, adds product-id, sends the key and User-Agent, and returns the payload', async () => {
    server.script((_req, res) => json(res, 200, envelope('success', 'submitted')));
    const result = await client().call('getProgress', { params: { id: 172 } });
    expect(result.data).toBe('submitted');
    expect(result.payload).toBe('submitted');
    expect(server.requests).toHaveLength(1);
    const [seen] = server.requests;
    expect(seen?.method).toBe('GET');
    expect(seen?.url).toBe('/api/v1/loan_request/172/progress?product-id=12');
    expect(seen?.headers).toMatchObject({
      authorization: `Bearer ${KEY}`,
      'user-agent': USER_AGENT,
      accept: 'application/json',
    });
    expect(seen?.headers['content-type']).toBeUndefined();
    expect(seen?.body).toBe('');
    expect(USER_AGENT).toMatch(/^loanctl\/\S+ node\/\d+\.\d+\.\d+$/);
  });

  it('takes the loan request from data1 where the API puts it there', async () => {
    server.script((_req, res) => json(res, 200, envelope('success', null, 'submitted', { id: 5, status: 'pending' })));
    const result = await client().call('submitLoanRequest', { params: { id: 5 } });
    expect(result.payload).toEqual({ id: 5, status: 'pending' });
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'PUT /api/v1/loan_request/5/submit?product-id=12',
    ]);
  });

  it('lets a command override the product id, and returns status exists as a result', async () => {
    server.script((req, res) =>
      req.method === 'POST'
        ? json(res, 200, envelope('exists', { email: 'ada@example.com' }, 'user exists'))
        : json(res, 200, envelope('success', 'submitted')),
    );
    const body = {
      firstname: 'Ada',
      lastname: 'Obi',
      email: 'ada@example.com',
      password: 'pw',
      phone: '+2348012345678',
      gender: 'female',
    };
    const api = client();
    const result = await api.call('createUser', { body });
    expect(result.status).toBe('exists');
    await api.call('getProgress', { params: { id: 3 }, productId: 77 });
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /api/v1/user',
      'GET /api/v1/loan_request/3/progress?product-id=77',
    ]);
    expect(server.requests[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual(body);
  });

  it('refuses an invalid body before sending anything (exit 2, the field named)', async () => {
    const error = await failure(
      client().call('createLoanRequest', {
        params: { user_id: 7 },
        // Invalid on purpose: what a caller without types (or a --data file) could send.
        body: { amount: -5 } as never,
      }),
    );
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toContain('amount must be an amount from 0.01 to 1000000000000');
    expect(error.message).toContain('purpose is required');
    expect(server.requests).toHaveLength(0);
    expect(server.connections()).toBe(0);
  });

  it('refuses a query the contract does not allow before sending, naming the flag and not --data', async () => {
    const error = await failure(client().call('userExists', { query: { email: 'x@y.z', action: 'exists' } }));
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toBe('Invalid query: email must be an e-mail address.');
    expect(error.hint).toBe('Fix --email and run again.');
    expect(server.requests).toHaveLength(0);
  });

  it('needs a product id where the operation takes one (exit 2 naming --product)', async () => {
    const error = await failure(client({ productId: undefined }).call('getGuarantors', { params: { id: 1 } }));
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.hint).toContain('--product');
    expect(server.connections()).toBe(0);
  });

  it('with no key configured: exit 3 and how to configure one, nothing sent', async () => {
    const error = await failure(client({ apiKey: undefined, apiKeySource: undefined }).request('GET', '/api/v1/user'));
    expect(error.exitCode).toBe(ExitCode.auth);
    expect(`${error.message} ${error.hint}`).toMatch(/loanctl profile add .*LOANCTL_API_KEY/);
    expect(server.connections()).toBe(0);
  });
});

describe('HTTP client: faults', () => {
  it('a reply slower than --timeout is exit 5 saying so (a timed-out GET is not repeated)', async () => {
    server.script((_req, res) => {
      setTimeout(() => json(res, 200, envelope('success', [])), 1_000);
    });
    const error = await failure(client({ timeoutMs: 100 }).request('GET', '/api/v1/user'));
    expect(error.exitCode).toBe(ExitCode.network);
    expect(error.message).toBe(`No complete reply from ${host()} within 100 ms.`);
    expect(error.hint).toContain('--timeout');
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toHaveLength(0);
  });

  it('a GET still answered 5xx after its retries: the server failed, try again later (a read changed nothing)', async () => {
    server.script((_req, res) => json(res, 503, envelope('error', null, 'Service unavailable')));
    const error = await failure(client().call('listUsers'));
    expect(error.exitCode).toBe(ExitCode.api);
    expect(error.message).toBe('The API answered with an error (HTTP 503): Service unavailable.');
    expect(error.hint).toBe(
      'The server failed to answer; this read changed nothing, so try again later. --debug shows the exchange.',
    );
    expect(error.hint).not.toMatch(/applied/);
    expect(server.requests).toHaveLength(4);
  });

  it('a GET answered 503 then 200 succeeds after one retry', async () => {
    server.script((_req, res, n) =>
      n === 0 ? json(res, 503, envelope('error', null, 'busy')) : json(res, 200, envelope('success', [{ id: 1 }])),
    );
    const result = await client().request('GET', '/api/v1/user');
    expect(result.data).toEqual([{ id: 1 }]);
    expect(sleeps).toHaveLength(1);
    expect(io.stderr.text()).toContain(`HTTP 503 from ${host()}; retrying`);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/v1/user', 'GET /api/v1/user']);
  });

  it('429 with Retry-After waits that long, then succeeds (also for a POST)', async () => {
    server.script((_req, res, n) =>
      n === 0
        ? res.writeHead(429, { 'retry-after': '2' }).end('slow down')
        : json(res, 200, envelope('success', { id: 9 })),
    );
    // --timeout bounds the waits too: 5 s leaves room for the 2 s asked for.
    const result = await client({ timeoutMs: 5_000 }).call('createLoanRequest', {
      params: { user_id: 7 },
      body: { amount: 50000, purpose: 'stock' },
    });
    expect(result.data).toEqual({ id: 9 });
    expect(sleeps).toEqual([2000]);
    expect(server.requests).toHaveLength(2);
    for (const seen of server.requests) {
      expect(`${seen.method} ${seen.url}`).toBe('POST /api/v1/user/7/loan_request?product-id=12');
      expect(JSON.parse(seen.body)).toEqual({ amount: 50000, purpose: 'stock' });
    }
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('an HTML 502 is exit 5 with one clear line, after the GET retries run out', async () => {
    server.script((_req, res) =>
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>'),
    );
    const error = await failure(client(PATIENT).request('GET', '/api/v1/user'));
    expect(error.exitCode).toBe(ExitCode.network);
    expect(error.message).toBe(`The server at ${server.url} answered HTTP 502 with an HTML page, not the API's JSON.`);
    expect(error.hint).toContain(`${server.url} from profile "prod"`);
    expect(error.message).not.toContain('\n');
    expect(sleeps).toHaveLength(3);
    expect(server.requests).toHaveLength(4);
  });

  it('a truncated JSON body is exit 5, not a parse stack trace', async () => {
    server.script((_req, res) => json(res, 200, '{"status":"success","mess'));
    const error = await failure(client().call('deleteLoanRequest', { params: { id: 1 } }));
    expect(error.exitCode).toBe(ExitCode.network);
    expect(error.message).toContain('cut off or malformed');
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['DELETE /api/v1/loan_request/1?product-id=12']);
  });

  it('JSON that is not the envelope is exit 5', async () => {
    server.script((_req, res) => json(res, 200, '{"hello":"world"}'));
    const error = await failure(client().request('GET', '/api/v1/user'));
    expect(error.exitCode).toBe(ExitCode.network);
    expect(error.message).toContain('not the API envelope');
  });

  it('connection refused (a real closed local port) is exit 5, after retries', async () => {
    const port = await closedPort();
    const error = await failure(
      client({ ...PATIENT, baseUrl: `http://127.0.0.1:${port}`, baseUrlSource: 'flag' }).request('GET', '/api/v1/user'),
    );
    expect(error.exitCode).toBe(ExitCode.network);
    expect(error.message).toBe(`Could not connect to 127.0.0.1:${port}: connection refused.`);
    expect(error.hint).toContain(`--base-url http://127.0.0.1:${port}`);
    expect(sleeps).toHaveLength(3);
  });

  it('connection refused on a POST is also retried: it never reached the server', async () => {
    const port = await closedPort();
    const error = await failure(
      client({ ...PATIENT, baseUrl: `http://127.0.0.1:${port}` }).call('tokenizeLinker', { params: { id: 3 } }),
    );
    expect(error.exitCode).toBe(ExitCode.network);
    expect(error.message).toBe(`Could not connect to 127.0.0.1:${port}: connection refused.`);
    expect(sleeps).toHaveLength(3);
  });

  it('401 is exit 3 with the API message and what to do', async () => {
    server.script((_req, res) => json(res, 401, envelope('error', null, 'invalid token')));
    const error = await failure(client().request('GET', '/api/v1/user'));
    expect(error.exitCode).toBe(ExitCode.auth);
    expect(error.message).toBe('The API rejected the API key (HTTP 401): invalid token.');
    expect(error.hint).toContain('profile "prod"');
    expect(server.requests).toHaveLength(1);
  });

  it('403 with a non-JSON body is still exit 3', async () => {
    server.script((_req, res) => res.writeHead(403, { 'content-type': 'text/plain' }).end('Forbidden'));
    expect((await failure(client().request('GET', '/api/v1/user'))).exitCode).toBe(ExitCode.auth);
  });

  it('a POST answered 503 is not repeated (it may have reached the server)', async () => {
    server.script((_req, res, n) =>
      n === 0
        ? json(res, 503, envelope('error', null, 'Service unavailable'))
        : json(res, 200, envelope('success', { id: 1 })),
    );
    const body = {
      status: 'employed',
      company_name: 'Acme',
      company_address: '1 Road',
      position: 'Clerk',
      salary: 100000,
      manager: 'Bo',
      manager_phone: '+2348000000000',
      manager_email: 'bo@acme.test',
    };
    const error = await failure(client().call('addEmployment', { params: { id: 4 }, body }));
    expect(error.exitCode).toBe(ExitCode.api);
    expect(error.message).toBe('The API answered with an error (HTTP 503): Service unavailable.');
    // It may have been applied: no "try again", but the command that shows whether it was.
    expect(error.hint).toBe(
      'It was sent and may or may not have been applied; before running it again, see whether it was: loanctl loan employment 4 --product 12',
    );
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /api/v1/loan_request/4/employment?product-id=12',
    ]);
    expect(sleeps).toHaveLength(0);
  });

  it("a raw POST to tokenize_mono (the real documentation's path) names the same check as tokenize_linker", async () => {
    server.script((_req, res) => json(res, 500, envelope('error', null, 'Something went wrong. Please try again')));
    const error = await failure(client().request('POST', '/api/v1/loan_request/2/tokenize_mono'));
    expect(error.hint).toBe(
      'It was sent and may or may not have been applied; before running it again, see whether it was: loanctl loan show 2 --product 12',
    );
  });

  it('status no-access is exit 4 with the API message', async () => {
    server.script((_req, res) =>
      json(res, 200, envelope('no-access', null, 'You do not have access to this user. Verify the user id')),
    );
    const error = await failure(
      client().call('createLoanRequest', { params: { user_id: 99 }, body: { amount: 5, purpose: 'x' } }),
    );
    expect(error.exitCode).toBe(ExitCode.noAccess);
    expect(error.message).toBe('No access: You do not have access to this user. Verify the user id.');
    expect(server.requests.map((r) => r.url)).toEqual(['/api/v1/user/99/loan_request?product-id=12']);
  });

  it('status error (even on HTTP 200) is exit 1 with the API message', async () => {
    server.script((_req, res) => json(res, 400, envelope('error', null, 'Direction not specified')));
    const error = await failure(client().call('listLoanRequests'));
    expect(error.exitCode).toBe(ExitCode.api);
    expect(error.message).toBe('The API answered with an error (HTTP 400): Direction not specified.');
    expect(error.hint).toBe('Change what it names and run the command again.');
    expect(error.reply?.rawBody).toContain('Direction not specified');
    expect(server.requests.map((r) => r.url)).toEqual(['/api/v1/loan_request?product-id=12']);
  });
});

describe('HTTP client: the key never shows', () => {
  it('--debug logs request and response lines with the key redacted', async () => {
    server.script((_req, res) => json(res, 401, envelope('error', null, `bad key ${KEY}`)));
    const error = await failure(client({ debug: true }).request('GET', '/api/v1/user'));
    const stderr = io.stderr.text();
    expect(stderr).toContain(`debug: > GET ${server.url}/api/v1/user`);
    expect(stderr).toContain('authorization: Bearer ***');
    expect(stderr).toMatch(/debug: < HTTP 401 .* in \d+ ms/);
    expect(stderr).not.toContain(KEY);
    expect(io.stdout.text()).not.toContain(KEY);
    expect(error.message).not.toContain(KEY);
    expect(error.exitCode).toBe(ExitCode.auth);
    // The key went where it belongs.
    expect(server.requests[0]?.authorization).toBe(`Bearer ${KEY}`);
  });

  it('--dry-run prints a curl command with Bearer *** and sends nothing', async () => {
    const error = await failure(
      client({ dryRun: true }).call('updateLoanRequest', { params: { id: 172 }, body: { purpose: "Ada's stock" } }),
    );
    expect(error.exitCode).toBe(ExitCode.ok);
    expect(io.stdout.text()).toBe(
      `curl -X PUT '${server.url}/api/v1/loan_request/172?product-id=12' -H 'Accept: application/json' -H 'Authorization: Bearer ***' -H 'Content-Type: application/json' --data '{"purpose":"Ada'\\''s stock"}'\n`,
    );
    expect(io.stdout.text() + io.stderr.text()).not.toContain(KEY);
    expect(server.connections()).toBe(0);
  });

  it('a key with a control character is an auth error (exit 3) before anything is sent', async () => {
    const error = await failure(client({ apiKey: 'sk_live_abc\u0007def' }).call('listUsers'));
    expect(error.exitCode).toBe(ExitCode.auth);
    expect(error.message).toContain('characters an HTTP header cannot carry');
    expect(server.connections()).toBe(0);
  });

  it('--dry-run masks a borrower password in the printed body', async () => {
    const body = {
      firstname: 'Ada',
      lastname: 'Obi',
      email: 'ada@example.com',
      password: 'correct horse',
      phone: '+2348012345678',
      gender: 'female',
    };
    const error = await failure(client({ dryRun: true }).call('createUser', { body }));
    expect(error.exitCode).toBe(ExitCode.ok);
    expect(io.stdout.text()).toContain(`"password":"***"`);
    expect(io.stdout.text()).toContain(`"email":"ada@example.com"`);
    expect(io.stdout.text()).not.toContain('correct horse');
    expect(server.connections()).toBe(0);
  });
});

describe('HTTP client: which transport failures are repeated', () => {
  it('a GET whose connection was reset is repeated; a POST is not (it may have arrived)', async () => {
    // The first request's socket is destroyed without a reply; the next one is answered.
    server.script((req, res, n) => (n === 0 ? req.socket.destroy() : json(res, 200, envelope('success', []))));
    expect((await client().request('GET', '/api/v1/user')).data).toEqual([]);
    expect(sleeps).toHaveLength(1);
    expect(server.requests).toHaveLength(2);

    sleeps = [];
    server.script((req) => req.socket.destroy());
    const error = await failure(client().call('tokenizeLinker', { params: { id: 2 } }));
    expect(error.exitCode).toBe(ExitCode.network);
    expect(error.message).toBe(`The connection to ${host()} failed before a complete reply (ECONNRESET).`);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /api/v1/loan_request/2/tokenize_linker']);
    expect(sleeps).toHaveLength(0);
  });

  it('the socket closed mid-body: "connection failed"; a GET is repeated, a POST is not', async () => {
    server.script((_req, res) => cutOff(res, '{"status":"success","message":"ok","data":[{"id":1,"ema'));
    const get = await failure(client(PATIENT).request('GET', '/api/v1/user'));
    expect(get.exitCode).toBe(ExitCode.network);
    expect(get.message).toBe(`The connection to ${host()} failed before a complete reply (ECONNRESET).`);
    expect(io.stderr.text()).toContain('loanctl: connection failed (ECONNRESET); retrying in');
    expect(server.requests).toHaveLength(4);
    expect(sleeps).toHaveLength(3);

    sleeps = [];
    server.script((_req, res) => cutOff(res, '{"status":"success","message":"ok","data":{"id":'));
    const post = await failure(client().call('tokenizeLinker', { params: { id: 2 } }));
    expect(post.exitCode).toBe(ExitCode.network);
    expect(post.message).toBe(`The connection to ${host()} failed before a complete reply (ECONNRESET).`);
    expect(server.requests.map((r) => r.method)).toEqual(['POST']);
    expect(sleeps).toHaveLength(0);
  });

  it('a POST whose reply outlives --timeout fails saying so, and is not repeated', async () => {
    // Headers at once, then the body stalls: the limit covers the whole exchange, not only the headers.
    server.script((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"status":"success",');
    });
    const started = Date.now();
    const error = await failure(client({ timeoutMs: 300 }).call('tokenizeLinker', { params: { id: 2 } }));
    expect(error.exitCode).toBe(ExitCode.network);
    expect(error.message).toBe(`The reply from ${host()} began but did not finish within 300 ms.`);
    // It may have been applied: the check, and --timeout for a slow server, but no "try again".
    expect(error.hint).toBe(
      'It was sent and may or may not have been applied (if the server is slow, --timeout SECONDS gives it longer next time); before running it again, see whether it was: loanctl loan show 2 --product 12',
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(server.requests.map((r) => r.method)).toEqual(['POST']);
    expect(sleeps).toHaveLength(0);
    expect(io.stderr.text()).not.toContain('retrying');
  });
});

describe('HTTP client: faults a local server cannot produce (a fake transport)', () => {
  /** A transport whose every exchange fails as Node fails it with `code`; it records what it was given. */
  function failingTransport(code: string, message: string) {
    const sent: Exchange[] = [];
    const transport: Transport = {
      async send(exchange) {
        sent.push(exchange);
        throw Object.assign(new Error(message), { code });
      },
      async close() {},
    };
    return { transport, sent };
  }

  it('an unknown host name or a bad certificate is not repeated: it would fail the same way', async () => {
    const base = { baseUrl: 'https://api.example.test' };
    const dnsFault = failingTransport('ENOTFOUND', 'getaddrinfo ENOTFOUND api.example.test');
    const dns = await failure(client(base, { transport: dnsFault.transport }).request('GET', '/api/v1/user'));
    expect(dns.exitCode).toBe(ExitCode.network);
    expect(dns.message).toBe('Could not resolve the host name api.example.test (DNS ENOTFOUND).');
    expect(dnsFault.sent).toHaveLength(1);

    const tlsFault = failingTransport('CERT_HAS_EXPIRED', 'certificate has expired');
    const tls = await failure(client(base, { transport: tlsFault.transport }).request('GET', '/api/v1/user'));
    expect(tls.exitCode).toBe(ExitCode.network);
    expect(tls.message).toBe(
      "TLS error talking to api.example.test: expired — the server's certificate has expired (CERT_HAS_EXPIRED).",
    );
    expect(tlsFault.sent).toHaveLength(1);
    expect(sleeps).toHaveLength(0);
  });

  it('a DNS failure that may pass (EAI_AGAIN) and a connect timeout are repeated, even for a POST', async () => {
    const base = { baseUrl: 'https://api.example.test' };
    const dnsFault = failingTransport('EAI_AGAIN', 'getaddrinfo EAI_AGAIN api.example.test');
    const dns = await failure(
      client(base, { transport: dnsFault.transport }).call('tokenizeLinker', { params: { id: 2 } }),
    );
    expect(dns.message).toBe('Could not resolve the host name api.example.test (DNS EAI_AGAIN).');
    expect(dnsFault.sent.map((e) => e.method)).toEqual(['POST', 'POST', 'POST', 'POST']);

    const connectFault = failingTransport(CONNECT_TIMEOUT, 'connect timed out after 2000 ms');
    const connect = await failure(
      client(base, { transport: connectFault.transport }).call('tokenizeLinker', { params: { id: 2 } }),
    );
    expect(connect.exitCode).toBe(ExitCode.network);
    expect(connect.message).toBe('Could not connect to api.example.test: the connection timed out.');
    expect(connectFault.sent.map((e) => e.method)).toEqual(['POST', 'POST', 'POST', 'POST']);
    expect(io.stderr.text()).toContain('loanctl: connect timed out; retrying in');
  });
});

describe('HTTP client: the connection pool', () => {
  it('two calls in a row on one client reuse one kept-alive connection', async () => {
    server.script((_req, res) => json(res, 200, envelope('success', [])));
    const api = client();
    await api.request('GET', '/api/v1/user');
    await api.call('listUsers');
    expect(server.requests).toHaveLength(2);
    expect(server.connections()).toBe(1);
  });

  it('close({ abort: true }) while a request is out ends it at once: "abandoned", not a timeout', async () => {
    let arrived: () => void = () => {};
    const reached = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    server.script(() => arrived()); // never answers
    const api = client({ timeoutMs: 20_000 });
    const pending = failure(api.call('tokenizeLinker', { params: { id: 2 } }));
    await reached;
    const started = Date.now();
    await api.close({ abort: true });
    const error = await pending;
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error.exitCode).toBe(ExitCode.network);
    expect(error.message).toBe(`The request to ${host()} was abandoned (the run was stopped).`);
    expect(server.requests).toHaveLength(1);
    expect(io.stderr.text()).not.toContain('retrying');
  });
});

describe('HTTP client: messages', () => {
  it('a message that ends with its own full stop does not get a second one', async () => {
    server.script((_req, res) => json(res, 401, envelope('error', null, 'API key is invalid.')));
    const error = await failure(client().request('GET', '/api/v1/user'));
    expect(error.message).toBe('The API rejected the API key (HTTP 401): API key is invalid.');
  });

  it('a reply that starts with a UTF-8 byte order mark is read as JSON, and --raw does not print the mark', async () => {
    const text = envelope('success', [{ id: 1, name: 'Adaọbi' }]);
    server.script((_req, res) => {
      const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      res.end(body);
    });
    const result = await client().request('GET', '/api/v1/user');
    expect(result.data).toEqual([{ id: 1, name: 'Adaọbi' }]);
    expect(result.rawBody).toBe(text);
  });
});

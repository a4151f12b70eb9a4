/**
 * The HTTP layer's fault paths, with undici's MockAgent at the HTTP boundary (and one real closed
 * port for "connection refused"). Each test asserts what a user would notice: the exit code, the
 * one line on stderr, whether the request was repeated, and that the key never shows.
 */
import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Settings } from '../../src/config/settings.js';
import { ExitCode, LoanctlError } from '../../src/errors.js';
import { createApiClient, parseRetryAfter, USER_AGENT } from '../../src/http/client.js';
import { type FakeIo, fakeIo } from '../helpers/fake-io.js';
import { closedPort } from '../helpers/ports.js';

const ORIGIN = 'https://api.example.test';
const KEY = 'sk_live_SECRETSECRET_9f8e7d';

function settings(overrides: Partial<Settings> = {}): Settings {
  return {
    profile: { name: 'prod', source: 'current' },
    baseUrl: ORIGIN,
    baseUrlSource: 'profile',
    apiKey: KEY,
    apiKeySource: 'profile',
    productId: 12,
    productIdSource: 'profile',
    orgId: undefined,
    timeoutMs: 2_000,
    debug: false,
    dryRun: false,
    output: 'json',
    fields: undefined,
    raw: false,
    color: false,
    ...overrides,
  };
}

function envelope(status: string, data: unknown, message = 'ok', data1?: unknown) {
  return JSON.stringify(data1 === undefined ? { status, message, data } : { status, message, data, data1 });
}

const JSON_HEADERS = { 'content-type': 'application/json' };

let agent: MockAgent;
let io: FakeIo;
let sleeps: number[];

/** `dispatcher: null` sends for real (one keep-alive Agent), for the closed-port tests. */
function client(overrides: Partial<Settings> = {}, dispatcher: MockAgent | null = agent) {
  return createApiClient(settings(overrides), {
    io,
    dispatcher: dispatcher ?? undefined,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
  });
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

beforeEach(() => {
  agent = new MockAgent({ enableCallHistory: true });
  agent.disableNetConnect();
  io = fakeIo();
  sleeps = [];
});

afterEach(async () => {
  await agent.close();
});

describe('HTTP client: success and the request it sends', () => {
  it('fills the path, adds product-id, sends the key and User-Agent, and returns the payload', async () => {
    agent
      .get(ORIGIN)
      .intercept({
        path: '/api/v1/loan_request/172/progress?product-id=12',
        method: 'GET',
        headers: { authorization: `Bearer ${KEY}`, 'user-agent': USER_AGENT },
      })
      .reply(200, envelope('success', 'submitted'), { headers: JSON_HEADERS });
    const result = await client().call('getProgress', { params: { id: 172 } });
    expect(result.data).toBe('submitted');
    expect(result.payload).toBe('submitted');
    expect(USER_AGENT).toMatch(/^loanctl\/\S+ node\/\d+\.\d+\.\d+$/);
  });

  it('takes the loan request from data1 where the API puts it there', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v1/loan_request/5/submit?product-id=12', method: 'PUT' })
      .reply(200, envelope('success', null, 'submitted', { id: 5, status: 'pending' }));
    const result = await client().call('submitLoanRequest', { params: { id: 5 } });
    expect(result.payload).toEqual({ id: 5, status: 'pending' });
  });

  it('lets a command override the product id, and returns status exists as a result', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v1/user', method: 'POST', body: (b) => JSON.parse(b).email === 'ada@example.com' })
      .reply(200, envelope('exists', { email: 'ada@example.com' }, 'user exists'));
    const body = {
      firstname: 'Ada',
      lastname: 'Obi',
      email: 'ada@example.com',
      password: 'pw',
      phone: '+2348012345678',
      gender: 'female',
    };
    const result = await client().call('createUser', { body });
    expect(result.status).toBe('exists');
  });

  it('refuses an invalid body before sending anything (exit 2, the field named)', async () => {
    const error = await failure(client().call('createLoanRequest', { params: { user_id: 7 }, body: { amount: -5 } }));
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toContain('amount must be a positive amount');
    expect(error.message).toContain('purpose is required');
    expect(agent.getCallHistory()?.calls()).toHaveLength(0);
  });

  it('needs a product id where the operation takes one (exit 2 naming --product)', async () => {
    const error = await failure(client({ productId: undefined }).call('getGuarantors', { params: { id: 1 } }));
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.hint).toContain('--product');
  });

  it('with no key configured: exit 3 and how to configure one, nothing sent', async () => {
    const error = await failure(client({ apiKey: undefined, apiKeySource: undefined }).request('GET', '/api/v1/user'));
    expect(error.exitCode).toBe(ExitCode.auth);
    expect(`${error.message} ${error.hint}`).toMatch(/loanctl profile add .*LOANCTL_API_KEY/);
    expect(agent.getCallHistory()?.calls()).toHaveLength(0);
  });
});

describe('HTTP client: faults', () => {
  it('a reply slower than --timeout is exit 5 saying so', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v1/user', method: 'GET' })
      .reply(200, envelope('success', []))
      .delay(1_000);
    const error = await failure(client({ timeoutMs: 100 }).request('GET', '/api/v1/user'));
    expect(error.exitCode).toBe(ExitCode.network);
    expect(error.message).toBe('No complete reply from api.example.test within 100 ms.');
    expect(error.hint).toContain('--timeout');
  });

  it('a GET answered 503 then 200 succeeds after one retry', async () => {
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/api/v1/user', method: 'GET' }).reply(503, envelope('error', null, 'busy'));
    pool.intercept({ path: '/api/v1/user', method: 'GET' }).reply(200, envelope('success', [{ id: 1 }]));
    const result = await client().request('GET', '/api/v1/user');
    expect(result.data).toEqual([{ id: 1 }]);
    expect(sleeps).toHaveLength(1);
    expect(io.stderr.text()).toContain('HTTP 503 from api.example.test; retrying');
  });

  it('429 with Retry-After waits that long, then succeeds (also for a POST)', async () => {
    const pool = agent.get(ORIGIN);
    pool
      .intercept({ path: '/api/v1/user/7/loan_request?product-id=12', method: 'POST' })
      .reply(429, 'slow down', { headers: { 'retry-after': '2' } });
    pool
      .intercept({ path: '/api/v1/user/7/loan_request?product-id=12', method: 'POST' })
      .reply(200, envelope('success', { id: 9 }));
    const result = await client().call('createLoanRequest', {
      params: { user_id: 7 },
      body: { amount: 50000, purpose: 'stock' },
    });
    expect(result.data).toEqual({ id: 9 });
    expect(sleeps).toEqual([2000]);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('an HTML 502 is exit 5 with one clear line, after the GET retries run out', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v1/user', method: 'GET' })
      .reply(502, '<html><body><h1>502 Bad Gateway</h1></body></html>', { headers: { 'content-type': 'text/html' } })
      .times(4);
    const error = await failure(client().request('GET', '/api/v1/user'));
    expect(error.exitCode).toBe(ExitCode.network);
    expect(error.message).toBe(
      "The server at https://api.example.test answered HTTP 502 with an HTML page, not the API's JSON.",
    );
    expect(error.hint).toContain('https://api.example.test from profile "prod"');
    expect(error.message).not.toContain('\n');
    expect(sleeps).toHaveLength(3);
  });

  it('a truncated JSON body is exit 5, not a parse stack trace', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v1/loan_request/1?product-id=12', method: 'DELETE' })
      .reply(200, '{"status":"success","mess', { headers: JSON_HEADERS });
    const error = await failure(client().call('deleteLoanRequest', { params: { id: 1 } }));
    expect(error.exitCode).toBe(ExitCode.network);
    expect(error.message).toContain('cut off or malformed');
  });

  it('JSON that is not the envelope is exit 5', async () => {
    agent.get(ORIGIN).intercept({ path: '/api/v1/user', method: 'GET' }).reply(200, '{"hello":"world"}');
    const error = await failure(client().request('GET', '/api/v1/user'));
    expect(error.exitCode).toBe(ExitCode.network);
  });

  it('connection refused (a real closed local port) is exit 5, after retries', async () => {
    const port = await closedPort();
    const real = client({ baseUrl: `http://127.0.0.1:${port}`, baseUrlSource: 'flag' }, null);
    const error = await failure(real.request('GET', '/api/v1/user'));
    await real.close();
    expect(error.exitCode).toBe(ExitCode.network);
    expect(error.message).toBe(`Could not connect to 127.0.0.1:${port}: connection refused.`);
    expect(error.hint).toContain(`--base-url http://127.0.0.1:${port}`);
    expect(sleeps).toHaveLength(3);
  });

  it('connection refused on a POST is also retried: it never reached the server', async () => {
    const port = await closedPort();
    const real = client({ baseUrl: `http://127.0.0.1:${port}` }, null);
    const error = await failure(real.call('tokenizeLinker', { params: { id: 3 } }));
    await real.close();
    expect(error.exitCode).toBe(ExitCode.network);
    expect(sleeps).toHaveLength(3);
  });

  it('401 is exit 3 with the API message and what to do', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v1/user', method: 'GET' })
      .reply(401, envelope('error', null, 'invalid token'));
    const error = await failure(client().request('GET', '/api/v1/user'));
    expect(error.exitCode).toBe(ExitCode.auth);
    expect(error.message).toBe('The API rejected the API key (HTTP 401): invalid token.');
    expect(error.hint).toContain('profile "prod"');
  });

  it('403 with a non-JSON body is still exit 3', async () => {
    agent.get(ORIGIN).intercept({ path: '/api/v1/user', method: 'GET' }).reply(403, 'Forbidden');
    expect((await failure(client().request('GET', '/api/v1/user'))).exitCode).toBe(ExitCode.auth);
  });

  it('a POST answered 503 is not repeated (it may have reached the server)', async () => {
    const pool = agent.get(ORIGIN);
    pool
      .intercept({ path: '/api/v1/loan_request/4/employment?product-id=12', method: 'POST' })
      .reply(503, envelope('error', null, 'Service unavailable'));
    pool
      .intercept({ path: '/api/v1/loan_request/4/employment?product-id=12', method: 'POST' })
      .reply(200, envelope('success', { id: 1 }));
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
    expect(error.hint).toBe(
      'Check whether the change was applied before running it again; --debug shows the exchange.',
    );
    expect(agent.getCallHistory()?.calls()).toHaveLength(1);
    expect(sleeps).toHaveLength(0);
  });

  it('status no-access is exit 4 with the API message', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v1/user/99/loan_request?product-id=12', method: 'POST' })
      .reply(200, envelope('no-access', null, 'You do not have access to this user. Verify the user id'));
    const error = await failure(
      client().call('createLoanRequest', { params: { user_id: 99 }, body: { amount: 5, purpose: 'x' } }),
    );
    expect(error.exitCode).toBe(ExitCode.noAccess);
    expect(error.message).toBe('No access: You do not have access to this user. Verify the user id.');
  });

  it('status error (even on HTTP 200) is exit 1 with the API message', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v1/loan_request?product-id=12', method: 'GET' })
      .reply(400, envelope('error', null, 'Direction not specified'));
    const error = await failure(client().call('listLoanRequests'));
    expect(error.exitCode).toBe(ExitCode.api);
    expect(error.message).toBe('The API answered with an error (HTTP 400): Direction not specified.');
    expect(error.hint).toBe('Change what it names and run the command again.');
    expect(error.reply?.rawBody).toContain('Direction not specified');
  });
});

describe('HTTP client: the key never shows', () => {
  it('--debug logs request and response lines with the key redacted', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v1/user', method: 'GET' })
      .reply(401, envelope('error', null, `bad key ${KEY}`));
    const error = await failure(client({ debug: true }).request('GET', '/api/v1/user'));
    const stderr = io.stderr.text();
    expect(stderr).toContain('debug: > GET https://api.example.test/api/v1/user');
    expect(stderr).toContain('authorization: Bearer ***');
    expect(stderr).toMatch(/debug: < HTTP 401 .* in \d+ ms/);
    expect(stderr).not.toContain(KEY);
    expect(io.stdout.text()).not.toContain(KEY);
    expect(error.exitCode).toBe(ExitCode.auth);
  });

  it('--dry-run prints a curl command with Bearer *** and sends nothing', async () => {
    const error = await failure(
      client({ dryRun: true }).call('updateLoanRequest', { params: { id: 172 }, body: { purpose: "Ada's stock" } }),
    );
    expect(error.exitCode).toBe(ExitCode.ok);
    expect(io.stdout.text()).toBe(
      `curl -X PUT 'https://api.example.test/api/v1/loan_request/172?product-id=12' -H 'Accept: application/json' -H 'Authorization: Bearer ***' -H 'Content-Type: application/json' --data '{"purpose":"Ada'\\''s stock"}'\n`,
    );
    expect(io.stdout.text() + io.stderr.text()).not.toContain(KEY);
    expect(agent.getCallHistory()?.calls()).toHaveLength(0);
  });

  it('a key with a control character is an auth error (exit 3) before anything is sent', async () => {
    const error = await failure(client({ apiKey: 'sk_live_abc\u0007def' }).call('listUsers'));
    expect(error.exitCode).toBe(ExitCode.auth);
    expect(error.message).toContain('characters an HTTP header cannot carry');
    expect(agent.getCallHistory()?.calls() ?? []).toHaveLength(0);
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
  });
});

describe('HTTP client: which transport failures are repeated', () => {
  const failing = (code: string) => Object.assign(new Error(`simulated ${code}`), { code });

  it('a GET whose connection was reset is repeated; a POST is not (it may have arrived)', async () => {
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/api/v1/user', method: 'GET' }).replyWithError(failing('ECONNRESET'));
    pool.intercept({ path: '/api/v1/user', method: 'GET' }).reply(200, envelope('success', []));
    expect((await client().request('GET', '/api/v1/user')).data).toEqual([]);
    expect(sleeps).toHaveLength(1);

    sleeps = [];
    pool
      .intercept({ path: '/api/v1/loan_request/2/tokenize_linker', method: 'POST' })
      .replyWithError(failing('ECONNRESET'));
    const error = await failure(client().call('tokenizeLinker', { params: { id: 2 } }));
    expect(error.exitCode).toBe(ExitCode.network);
    expect(error.message).toContain('failed before a complete reply (ECONNRESET)');
    expect(sleeps).toHaveLength(0);
  });

  it('an unknown host name or a bad certificate is not repeated: it would fail the same way', async () => {
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/api/v1/user', method: 'GET' }).replyWithError(failing('ENOTFOUND'));
    const dns = await failure(client().request('GET', '/api/v1/user'));
    expect(dns.message).toBe('Could not resolve the host name api.example.test (DNS ENOTFOUND).');
    pool.intercept({ path: '/api/v1/user', method: 'GET' }).replyWithError(failing('CERT_HAS_EXPIRED'));
    const tls = await failure(client().request('GET', '/api/v1/user'));
    expect(tls.exitCode).toBe(ExitCode.network);
    expect(tls.message).toMatch(/^TLS error talking to api\.example\.test/);
    expect(sleeps).toHaveLength(0);
  });
});

describe('HTTP client: messages', () => {
  it('a message that ends with its own full stop does not get a second one', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v1/user', method: 'GET' })
      .reply(401, envelope('error', null, 'API key is invalid.'));
    const error = await failure(client().request('GET', '/api/v1/user'));
    expect(error.message).toBe('The API rejected the API key (HTTP 401): API key is invalid.');
  });
});

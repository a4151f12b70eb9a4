/**
 * `loanctl api METHOD PATH` in process through main(), against a real scripted `node:http` server
 * on 127.0.0.1 (../helpers/scripted-server.ts): the request sent is the one asked for, the
 * envelope is printed (also for an error reply) and the exit code follows the one mapping.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDeps } from '../../src/deps.js';
import { main } from '../../src/main.js';
import { type FakeIo, fakeIo } from '../helpers/fake-io.js';
import { json, type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';

const KEY = 'sk_test_INPROCESSKEY_1234';

let server: ScriptedServer;
let io: FakeIo;

function run(args: string[], input?: string) {
  io = fakeIo({ input });
  const env = {
    LOANCTL_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'loanctl-api-')), 'cfg'),
    LOANCTL_BASE_URL: server.url,
    LOANCTL_API_KEY: KEY,
  };
  return main(args, createDeps({ io, env, sleep: async () => {} }));
}

/** What reached the server, as `METHOD /path?query`. */
const sent = () => server.requests.map((r) => `${r.method} ${r.url}`);

beforeEach(async () => {
  server = await scriptedServer();
});
afterEach(async () => {
  await server.close();
});

describe('loanctl api', () => {
  it('prints the envelope exactly as received, with query and /api/v1 added', async () => {
    const body = '{"status":"success","message":"ok","data":{"loan_requests":[],"cursor":0}}';
    server.script((_req, res) => json(res, 200, body));
    expect(await run(['api', 'get', 'loan_request?product-id=12', '-q', 'direction=DESC'])).toBe(0);
    expect(io.stdout.text()).toBe(`${body}\n`);
    expect(sent()).toEqual(['GET /api/v1/loan_request?product-id=12&direction=DESC']);
    expect(server.requests[0]?.authorization).toBe(`Bearer ${KEY}`);
  });

  it.each([
    ['{"org_id":1e999}', '"org_id": 1e999'],
    ['{"ids":[99999999999999999999]}', '"0": 99999999999999999999'],
  ])('refuses --data %s, a number JSON.parse cannot keep, and sends nothing', async (data, shown) => {
    server.script((_req, res) => json(res, 200, '{"status":"success","message":"ok","data":null}'));
    expect(await run(['api', 'POST', '/loan_request/1/business', '--data', data])).toBe(2);
    expect(io.stderr.text()).toContain(`--data has a number that cannot be sent as written: ${shown}.`);
    expect(sent()).toEqual([]);
  });

  it('sends --data from stdin as the JSON body', async () => {
    server.script((_req, res) => json(res, 200, '{"status":"success","message":"updated","data":null}'));
    expect(
      await run(['api', 'PUT', '/api/v1/loan_request/5', '-q', 'product-id=1', '--data', '-'], '{"purpose":"stock"}'),
    ).toBe(0);
    expect(sent()).toEqual(['PUT /api/v1/loan_request/5?product-id=1']);
    expect(server.requests[0]?.body).toBe('{"purpose":"stock"}');
    expect(server.requests[0]?.headers['content-type']).toBe('application/json');
  });

  it('an error envelope is printed too, and the exit code follows the mapping', async () => {
    server.script((_req, res) => json(res, 200, '{"status":"no-access","message":"no access to user","data":null}'));
    expect(await run(['api', 'POST', '/user/9/loan_request', '--data', '{"amount":1,"purpose":"x"}'])).toBe(4);
    expect(JSON.parse(io.stdout.text()).status).toBe('no-access');
    expect(io.stderr.text()).toBe(
      'loanctl: No access: no access to user. Check the id, and that it belongs to the organisation of this API key.\n',
    );
    expect(sent()).toEqual(['POST /api/v1/user/9/loan_request']);
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({ amount: 1, purpose: 'x' });

    server.script((_req, res) =>
      json(res, 500, '{"status":"error","message":"Something went wrong. Please try again x","data":null}'),
    );
    expect(await run(['api', 'POST', '/loan_request/1/tokenize_linker'])).toBe(1);
    expect(sent()).toEqual(['POST /api/v1/loan_request/1/tokenize_linker']);

    server.script((_req, res) => json(res, 401, '{"status":"error","message":"unauthorised","data":null}'));
    expect(await run(['api', 'GET', '/user'])).toBe(3);
    expect(io.stdout.text() + io.stderr.text()).not.toContain(KEY);
    expect(sent()).toEqual(['GET /api/v1/user']);
  });

  it('bad input is exit 2 before anything is sent', async () => {
    expect(await run(['api', 'BREW', '/user'])).toBe(2);
    expect(io.stderr.text()).toContain('Unknown method "BREW"');
    expect(await run(['api', 'POST', '/user', '--data', '{oops'])).toBe(2);
    expect(io.stderr.text()).toMatch(/^loanctl: --data is not valid JSON: /);
    expect(await run(['api', 'GET', '/user', '-q', 'novalue'])).toBe(2);
    expect(await run(['api', 'GET', 'https://evil.example.com/x'])).toBe(2);
    expect(server.connections()).toBe(0);
  });
});

describe('--raw on an error reply', () => {
  it('prints the error envelope once on stdout, and still exits with the mapped code', async () => {
    const body = '{"status":"error","message":"Direction not specified","data":null}';
    server.script((_req, res) => json(res, 400, body));
    expect(await run(['api', 'GET', '/user', '--raw'])).toBe(1);
    expect(io.stdout.text()).toBe(`${body}\n`);
    expect(sent()).toEqual(['GET /api/v1/user']);
  });
});

describe('--raw on an error reply of any command', () => {
  it('loan progress --raw prints the no-access envelope and exits 4', async () => {
    const body = '{"status":"no-access","message":"no access to loan request","data":null}';
    server.script((_req, res) => json(res, 200, body));
    expect(await run(['loan', 'progress', '8', '--product', '3', '--raw'])).toBe(4);
    expect(io.stdout.text()).toBe(`${body}\n`);
    expect(io.stderr.text()).toContain('No access: no access to loan request.');
    expect(sent()).toEqual(['GET /api/v1/loan_request/8/progress?product-id=3']);
  });
});

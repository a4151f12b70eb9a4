/**
 * The real service's published replies, as its examples show them, in process through main()
 * against a real scripted `node:http` server (../helpers/scripted-server.ts). Its error replies
 * carry only `status` and `message` — no `data` key — and must get the exit code of their status
 * (docs/architecture.md#replies), not be taken for a reply that is not the API's JSON.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDeps } from '../../src/deps.js';
import { main } from '../../src/main.js';
import { borrower } from '../helpers/cli.js';
import { type FakeIo, fakeIo } from '../helpers/fake-io.js';
import { json, type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';

const KEY = 'sk_test_REALREPLIES_5678';

let server: ScriptedServer;
let io: FakeIo;

function run(args: string[], input?: string) {
  io = fakeIo({ input });
  const env = {
    LOANCTL_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'loanctl-real-')), 'cfg'),
    LOANCTL_BASE_URL: server.url,
    LOANCTL_API_KEY: KEY,
    LOANCTL_PRODUCT_ID: '12',
  };
  return main(args, createDeps({ io, env, sleep: async () => {} }));
}

beforeEach(async () => {
  server = await scriptedServer();
});
afterEach(async () => {
  await server.close();
});

const CREATE_LOAN = ['loan', 'create', '--user', '5', '--amount', '5000', '--purpose', 'stock', '-o', 'json'];

describe('replies without a data key, as the real service sends them', () => {
  it('status error with only a message: exit 1 with that message', async () => {
    server.script((_req, res) => json(res, 200, '{"status":"error","message":"Product ID is required"}'));
    expect(await run(CREATE_LOAN)).toBe(1);
    expect(io.stderr.text()).toContain('The API answered with an error (HTTP 200): Product ID is required.');
    expect(io.stderr.text()).not.toContain('not the API');
    expect(io.stdout.text()).toBe('');
  });

  it('status no-access with only a message: exit 4 with that message', async () => {
    server.script((_req, res) =>
      json(
        res,
        200,
        '{"status":"no-access","message":"You do not have access to this user, please verify the user-id"}',
      ),
    );
    expect(await run(CREATE_LOAN)).toBe(4);
    expect(io.stderr.text()).toContain('No access: You do not have access to this user, please verify the user-id.');
    expect(io.stderr.text()).not.toContain('not the API');
  });

  it('status exists with only a message: exit 0, the record says "exists"', async () => {
    server.script((_req, res) => json(res, 200, '{"status":"exists","message":"An existing user has this email"}'));
    const code = await run(
      ['user', 'create', ...borrower('ada@example.com', '+2348012345678'), '--password-stdin', '-o', 'json'],
      'secret-pass',
    );
    expect(code, io.stderr.text()).toBe(0);
    expect(JSON.parse(io.stdout.text())).toEqual({ status: 'exists' });
    expect(io.stderr.text()).toContain('already exists');
  });

  it('--raw prints the data-less envelope exactly as received', async () => {
    const body = '{"status":"error","message":"Product ID is required"}';
    server.script((_req, res) => json(res, 200, body));
    expect(await run([...CREATE_LOAN, '--raw'])).toBe(1);
    expect(io.stdout.text()).toBe(`${body}\n`);
  });

  it('a success with no data key: exit 0', async () => {
    server.script((_req, res) => json(res, 200, '{"status":"success","message":"deleted"}'));
    expect(await run(['loan', 'delete', '7', '--yes', '-o', 'json'])).toBe(0);
    expect(io.stderr.text()).not.toContain('not the API');
  });
});

describe('a success reply without the payload its operation returns', () => {
  it('loan create: one line naming what is missing and how to check, exit 5, nothing on stdout', async () => {
    server.script((_req, res) => json(res, 200, '{"status":"success","message":"Loan request created"}'));
    expect(await run(CREATE_LOAN)).toBe(5);
    const stderr = io.stderr.text();
    expect(stderr).toContain('without the data it returns (loanRequest)');
    expect(stderr).toContain('The change was probably made; check with: loanctl loan list');
    expect(stderr).not.toContain('Cannot read properties');
    expect(io.stdout.text()).toBe('');
  });

  it('loan list and loan show: a read says to try again', async () => {
    server.script((_req, res) => json(res, 200, '{"status":"success","message":"ok","data":null}'));
    expect(await run(['loan', 'list', '-o', 'json'])).toBe(5);
    expect(io.stderr.text()).toContain('without the data it returns (loanRequestPage)');
    expect(io.stderr.text()).toContain('Try again');
    expect(await run(['loan', 'show', '7', '-o', 'json'])).toBe(5);
    expect(io.stderr.text()).not.toContain('Cannot read properties');
  });

  it('delete and employment may carry none: still exit 0', async () => {
    server.script((_req, res) => json(res, 200, '{"status":"success","message":"deleted"}'));
    expect(await run(['loan', 'delete', '7', '--yes', '-o', 'json'])).toBe(0);
    server.script((_req, res) => json(res, 200, '{"status":"success","message":"none yet","data":null}'));
    expect(await run(['loan', 'employment', '7', '-o', 'json'])).toBe(0);
  });
});

describe('a success reply whose payload is of the wrong kind', () => {
  const LIST = ['user', 'list'];
  const cases: Array<[string, string[], string, string]> = [
    ['user list, a null item', LIST, '[{"id":1,"email":"a@example.com"},null]', 'item 2: null instead of a record'],
    ['user list, an object for the list', LIST, '{"id":1}', 'an object instead of a list'],
    ['user list, a number item', LIST, '[7]', 'item 1: a number instead of a record'],
    ['user find, a null item', ['user', 'find', '--phone', '+2348012345678'], '[null]', 'item 1: null'],
    ['loan list, a list for the page', ['loan', 'list'], '[{"id":5}]', 'a list instead of a record'],
    [
      'loan list, a null loan request in the page',
      ['loan', 'list'],
      '{"loan_requests":[null],"cursor":null}',
      'loan_requests: item 1: null instead of a record',
    ],
    ['loan create, a text for the record', CREATE_LOAN, '"created"', 'a text instead of a record'],
  ];
  it.each(cases)('%s: one line naming what it held, exit 5, nothing on stdout', async (_name, args, data, what) => {
    server.script((_req, res) => json(res, 200, `{"status":"success","message":"ok","data":${data}}`));
    expect(await run(args.filter((arg) => arg !== '-o' && arg !== 'json'))).toBe(5);
    const lines = io.stderr.text().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`(${what}`);
    expect(lines[0]).toMatch(args === CREATE_LOAN ? /probably made; check with: loanctl loan list/ : /Try again/);
    expect(io.stdout.text()).toBe('');
  });
});

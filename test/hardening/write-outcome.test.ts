/**
 * A write that was sent and got no complete answer may have been
 * applied. The real program, in-process (runCli), against a scripted server on 127.0.0.1 (the
 * process's own exit code under faults is cli-faults.test.ts's): each such failure is sent
 * once, never advises to "try again", says it may have been applied, and prints the exact
 * command that shows whether it was (src/contract/checks.ts). (A write that provably never left,
 * connection refused, is still retried: cli-faults.test.ts.)
 */

import { writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_COMMANDS, checkCommand } from '../../src/contract/checks.js';
import { cutOff, json, type Script, type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';
import {
  type CliResult,
  cleanEnv,
  cliInProcess as cli,
  errorLines,
  removeTemps,
  retryNotices,
  temp,
} from './helpers.js';

const KEY = 'sk_live_OUTCOMECANARY_3f9a1c';

let env: Record<string, string>;
const servers: ScriptedServer[] = [];

beforeAll(() => {
  env = cleanEnv({ LOANCTL_API_KEY: KEY, LOANCTL_PRODUCT_ID: '12' });
});
afterAll(async () => {
  for (const server of servers) await server.close();
  removeTemps();
});

/** GETs answered with an empty success; every write goes to `write`. */
async function serve(write: Script) {
  const server = await scriptedServer();
  servers.push(server);
  server.script((req, res, n) =>
    req.method === 'GET' ? json(res, 200, { status: 'success', message: 'ok', data: [] }) : write(req, res, n),
  );
  return { server, env: { ...env, LOANCTL_BASE_URL: server.url } };
}

const writes = (server: ScriptedServer) => server.requests.filter((request) => request.method !== 'GET');

const BANK = ['--code', '058', '--account-name', 'Ada Obi', '--account-number', '0123456789'];
const USER = ['--firstname', 'Ada', '--lastname', 'Obi', '--phone', '08012345678', '--gender', 'female'];

/** One error line, exit `code`, no "try again", and the check command at its end. */
function expectUnknownOutcome(result: CliResult, code: number, check: string) {
  expect(result.code, result.stderr).toBe(code);
  const lines = errorLines(result.stderr);
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).not.toMatch(/try again/i);
  expect(lines[0]).toContain('may or may not have been applied');
  expect(lines[0]?.endsWith(`see whether it was: ${check}`), lines[0]).toBe(true);
  expect(retryNotices(result.stderr)).toHaveLength(0);
  expect(result.stdout + result.stderr).not.toContain(KEY);
}

const never = () => {
  // no answer at all
};

describe.concurrent('a write sent with no complete answer', () => {
  it('add-bank that times out: sent once, names `loan banks ID`', async () => {
    const { server, env } = await serve(never);
    const result = await cli(['loan', 'add-bank', '7', ...BANK, '--timeout', '1'], env);
    expectUnknownOutcome(result, 5, 'loanctl loan banks 7 --product 12');
    expect(result.stderr).toMatch(/No complete reply from 127\.0\.0\.1:\d+ within 1 s\./);
    // A slow server may just need longer: said, without advising to simply try again.
    expect(result.stderr).toContain('if the server is slow, --timeout SECONDS gives it longer next time');
    expect(writes(server)).toHaveLength(1);
  });

  it('user create whose connection drops mid-reply: names `user exists --email E`', async () => {
    const { server, env } = await serve((_req, res) => cutOff(res, '{"status":"success","message":"ok","da'));
    const result = await cli(
      ['user', 'create', '--email', 'ada@example.com', ...USER, '--password-stdin'],
      env,
      'pw\n',
    );
    expectUnknownOutcome(result, 5, 'loanctl user exists --email ada@example.com');
    expect(writes(server)).toHaveLength(1);
  });

  it('submit answered 502 with no body: names `loan show ID`', async () => {
    const { server, env } = await serve((_req, res) => res.writeHead(502).end());
    const result = await cli(['loan', 'submit', '7'], env);
    expectUnknownOutcome(result, 5, 'loanctl loan show 7 --product 12');
    expect(result.stderr).toMatch(/answered HTTP 502 with an empty body/);
    expect(writes(server)).toHaveLength(1);
  });

  it('add-employment answered 500 with the API error: exit 1, names `loan employment ID`', async () => {
    const { server, env } = await serve((_req, res) =>
      json(res, 500, { status: 'error', message: 'database is busy', data: null }),
    );
    const result = await cli(
      [
        'loan',
        'add-employment',
        '9',
        ...['--status', 'employed', '--company-name', 'Acme', '--company-address', '1 Marina'],
        ...['--position', 'Cashier', '--salary', '150000', '--manager', 'Bola Ade'],
        ...['--manager-phone', '08098765432', '--manager-email', 'bola@acme.ng', '--product', '3'],
      ],
      env,
    );
    expectUnknownOutcome(result, 1, 'loanctl loan employment 9 --product 3');
    expect(writes(server)).toHaveLength(1);
  });

  it('a body that trickles and never ends is cut by --timeout: sent once, no "try again"', async () => {
    const { server, env } = await serve((_req, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"status":"success","message":"');
      const timer = setInterval(() => res.write('a'), 50);
      res.on('close', () => clearInterval(timer));
    });
    const result = await cli(['loan', 'tokenize', '7', '--timeout', '1'], env);
    expectUnknownOutcome(result, 5, 'loanctl loan show 7 --product 12');
    expect(writes(server)).toHaveLength(1);
  });

  it('`loanctl api POST` to an operation of the contract names its check, with the flags this run needed', async () => {
    const { server, env } = await serve(never);
    const { LOANCTL_BASE_URL: url, ...rest } = env;
    const result = await cli(
      [
        ...['api', 'POST', '/loan_request/41/guarantor', '-q', 'product-id=5', '--data', '{"firstname":"Chi"}'],
        ...['--timeout', '1', '--base-url', url as string],
      ],
      rest,
    );
    expectUnknownOutcome(result, 5, `loanctl loan guarantors 41 --product 5 --base-url ${url}`);
    expect(writes(server)).toHaveLength(1);
  });

  it('`loanctl api` to a path outside the contract: still no "try again"', async () => {
    const { server, env } = await serve(never);
    const result = await cli(['api', 'DELETE', '/something/else', '--timeout', '1'], env);
    expect(result.code).toBe(5);
    const line = errorLines(result.stderr)[0] ?? '';
    expect(line).not.toMatch(/try again/i);
    expect(line).toContain(
      'may or may not have been applied (if the server is slow, --timeout SECONDS gives it longer next time); see whether it was before running it again.',
    );
    expect(writes(server)).toHaveLength(1);
  });
});

describe.concurrent('bulk rows', () => {
  it('a row answered 503 says it may or may not have been created, and the command that shows it', async () => {
    const { server, env } = await serve((_req, res) =>
      json(res, 503, { status: 'error', message: 'Service unavailable', data: null }),
    );
    const path = join(temp(), 'users.ndjson');
    const row = { firstname: 'Ada', lastname: 'Obi', email: 'bulk1@example.com', password: 'pw', phone: '08012345678' };
    writeFileSync(path, `${JSON.stringify({ ...row, gender: 'female' })}\n`);
    const result = await cli(['user', 'create', '--from', path, '-o', 'ndjson'], env);
    expect(result.code, result.stderr).toBe(1);
    const line = JSON.parse(result.stdout.trim()) as { status: string; message: string };
    expect(line.status).toBe('error');
    expect(line.message).toContain(
      'may or may not have been created (loanctl user exists --email bulk1@example.com shows whether it was)',
    );
    expect(writes(server)).toHaveLength(1);
  });
});

describe.concurrent('every check command', () => {
  // Facts for every placeholder a check may have; a command that needs none ignores them.
  const facts = { params: { id: 7, user_id: 3 }, body: { email: 'ada@example.com' }, productId: 12 };

  it.each(Object.keys(CHECK_COMMANDS))(
    '%s: its check is a real loanctl command that only reads (a GET under --dry-run)',
    async (key) => {
      const command = checkCommand(key, facts);
      expect(command).toMatch(/^loanctl /);
      const args = (command as string).split(' ').slice(1);
      const result = await cli([...args, '--dry-run'], { ...env, LOANCTL_BASE_URL: 'http://127.0.0.1:9' });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^curl -X GET /);
    },
  );
});

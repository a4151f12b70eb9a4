/**
 * Replies are bounded. The real built CLI against a scripted server
 * on 127.0.0.1: a body past the 32 MiB bound (streamed without end, or announced by its
 * Content-Length) and JSON nested 100,000 deep each end with exit 5 and one line, not a crash
 * (`ERR_STRING_TOO_LONG`, "Maximum call stack size exceeded") and not a wait for --timeout.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type Script, type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';
import { assertBuilt, type CliResult, cleanEnv, cli, errorLines, removeTemps } from './helpers.js';

const KEY = 'sk_live_BOUNDSCANARY_8e2b7d';
const MiB = 1024 * 1024;

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

async function serve(script: Script) {
  const server = await scriptedServer();
  servers.push(server);
  server.script(script);
  return { server, env: { ...env, LOANCTL_BASE_URL: server.url } };
}

function expectOneLine(result: CliResult, line: RegExp) {
  expect(result.code, result.stderr).toBe(5);
  const lines = errorLines(result.stderr);
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(line);
  expect(result.stdout).toBe('');
}

/**
 * Streams JSON-looking bytes as fast as the client reads, up to `cap` (then it stalls, so a client
 * without a bound waits for --timeout instead of filling memory), counting what it wrote.
 */
function stream(res: ServerResponse, cap: number, written: { bytes: number; closedAt?: number }) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"status":"success","message":"ok","data":"');
  const chunk = Buffer.alloc(MiB, 'z');
  let open = true;
  res.on('close', () => {
    open = false;
    written.closedAt = written.bytes;
  });
  const pump = () => {
    while (open && written.bytes < cap) {
      written.bytes += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
  };
  pump();
}

const TOO_LARGE = /The reply from 127\.0\.0\.1:\d+ is larger than 32 MiB; loanctl stopped reading it\./;

describe.concurrent('a reply past the 32 MiB bound', () => {
  it('a body that never ends: exit 5 in one line, reading stopped near the bound, not repeated', async () => {
    const written: { bytes: number; closedAt?: number } = { bytes: 0 };
    const { server, env } = await serve((_req, res) => stream(res, 96 * MiB, written));
    const result = await cli(['user', 'list', '--timeout', '30'], env);
    expectOneLine(result, TOO_LARGE);
    expect(server.requests).toHaveLength(1);
    // The client closed the connection before the server had written much past the bound.
    expect(written.closedAt).toBeDefined();
    expect(written.closedAt).toBeLessThan(48 * MiB);
  });

  it('announced by its Content-Length: refused at once, also for `loanctl api` and --raw', async () => {
    const { env } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(600 * MiB) });
      res.write('{"status":"success","message":"ok","data":"');
    });
    expectOneLine(await cli(['api', 'GET', '/user', '--timeout', '30'], env), TOO_LARGE);
    expectOneLine(await cli(['user', 'list', '--raw', '--timeout', '30'], env), TOO_LARGE);
  });
});

describe.concurrent('JSON nested 100,000 deep', () => {
  const deep = `{"status":"success","message":"ok","data":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
  const NESTED = /answered HTTP 200 with JSON nested deeper than 256 levels, not the API's JSON\./;

  it.each([
    ['user list', ['user', 'list']],
    ['user list --raw', ['user', 'list', '--raw']],
    ['user list -o table', ['user', 'list', '-o', 'table']],
    ['api GET', ['api', 'GET', '/user']],
  ])('%s: exit 5 in one line', async (_name, args) => {
    const { env } = await serve((_req, res) => json(res, 200, deep));
    const result = await cli(args, env);
    expectOneLine(result, NESTED);
    expect(result.stderr).not.toContain('call stack');
  });
});

/**
 * `loanctl sandbox logs` is its own process, reading the log a running sandbox (here, this test
 * process) writes to the data dir; and a fault added by another process reaches the running sandbox.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { assertBuilt, run } from '../helpers/cli.js';
import { isolatedCliEnv } from '../helpers/run-cli.js';
import { call, openSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sandbox: TestSandbox;
const env = { env: isolatedCliEnv() };

beforeAll(async () => {
  assertBuilt();
  sandbox = await openSandbox({ listen: true, observe: { requestLog: { flushMs: 0 } } });
});
afterAll(async () => {
  await sandbox.close();
});

it('a fault added by one process answers in the running sandbox, and another process reads the log', async () => {
  const added = await run(env, ['sandbox', 'faults', 'add', '--data-dir', sandbox.dataDir, '--preset', 'error-200']);
  expect(added.code, added.stderr).toBe(0);
  expect((await call(sandbox.app, 'listUsers', { key: sandbox.org.api_key })).json.status).toBe('error');

  const logs = await run(env, ['sandbox', 'logs', '--data-dir', sandbox.dataDir, '-o', 'json']);
  expect(logs.code, logs.stderr).toBe(0);
  expect(logs.json<Array<{ path: string; http: number; status: string; why: string }>>().at(-1)).toMatchObject({
    path: '/api/v1/user',
    http: 200,
    status: 'error',
    why: 'fault #1 (loanctl sandbox faults list)',
  });
});

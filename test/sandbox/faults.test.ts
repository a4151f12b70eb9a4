/**
 * `loanctl sandbox faults` against a listening in-process sandbox: each fault is added by the CLI
 * while the sandbox runs (it picks it up without restart), and loanctl's own retries and messages
 * are checked against it. `faults list -o json` counts what reached the fault, which proves what
 * was (not) retried.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, borrower, run, spawnHome } from '../helpers/cli.js';
import { type CliSandbox, cliSandbox, runCli } from '../helpers/run-cli.js';
import { openSandbox, seedLoanRequest, type TestSandbox } from '../helpers/sandbox.js';

let sandbox: CliSandbox;
const noWait = { sleep: async () => {} };

beforeAll(async () => {
  sandbox = await cliSandbox({ observe: { requestLog: { flushMs: 0 } } });
});
afterAll(async () => {
  await sandbox.close();
});

async function addFault(...flags: string[]) {
  const result = await sandbox.run(['sandbox', 'faults', 'add', '--data-dir', sandbox.dataDir, '-o', 'json', ...flags]);
  expect(result.exitCode, result.stderr).toBe(0);
  return result.json<{ id: number }>();
}

async function faults() {
  return (await sandbox.run(['sandbox', 'faults', 'list', '--data-dir', sandbox.dataDir, '-o', 'json'])).json<
    Array<{ id: number; matched: number; fired: number }>
  >();
}

async function clearFaults() {
  const result = await sandbox.run(['sandbox', 'faults', 'clear', '--data-dir', sandbox.dataDir]);
  expect(result.exitCode, result.stderr).toBe(0);
}

const retryNotices = (stderr: string) => stderr.split('\n').filter((line) => /; retrying in /.test(line));

describe.sequential('faults on a running sandbox', () => {
  it('a GET is retried through two 503s, then succeeds', async () => {
    await clearFaults();
    await addFault('--path', '/api/v1/user', '--method', 'GET', '--status', '503', '--times', '2');
    const result = await sandbox.run(['user', 'list', '-o', 'json'], noWait);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(retryNotices(result.stderr)).toEqual([
      expect.stringMatching(/HTTP 503 from .*attempt 2 of 4/),
      expect.stringMatching(/HTTP 503 from .*attempt 3 of 4/),
    ]);
    expect((await faults())[0]).toMatchObject({ fired: 2 });
  });

  it('a POST answered 500 without the envelope is not retried, and says how to check whether it was done', async () => {
    await clearFaults();
    await addFault('--path', '/api/v1/user', '--method', 'POST', '--status', '500');
    const result = await sandbox.run(
      ['user', 'create', ...borrower('ada.fault@example.com', '+2348012345678'), '--password-stdin'],
      { ...noWait, stdin: 'S3cret-pass!\n' },
    );
    expect(result.exitCode).not.toBe(0);
    expect(retryNotices(result.stderr)).toEqual([]);
    expect(result.stderr).toMatch(/loanctl user exists --email ada\.fault@example\.com/);
    expect((await faults())[0]).toMatchObject({ matched: 1, fired: 1 });
  });

  it("the tokenize preset answers the spec's 500, and loanctl shows its message (exit 1)", async () => {
    await clearFaults();
    const { loanRequestId } = await seedLoanRequest(sandbox.app, sandbox.org);
    await addFault('--preset', 'tokenize-500');
    const result = await sandbox.run(['loan', 'tokenize', String(loanRequestId)], noWait);
    expect(result.exitCode, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/Something went wrong\. Please try again: the linker could not be tokenized/);
  });

  it('an error envelope with HTTP 200 is an API error (exit 1), not a success', async () => {
    await clearFaults();
    await addFault('--path', '/api/v1/user', '--status', '200', '--envelope', 'error', '--message', 'Upstream said no');
    const result = await sandbox.run(['user', 'list'], noWait);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/Upstream said no/);
  });

  it('the error-200 preset is a server failure, not a request to change something it never names', async () => {
    await clearFaults();
    await addFault('--preset', 'error-200');
    const read = await sandbox.run(['user', 'list'], noWait);
    expect(read.exitCode).toBe(1);
    expect(read.stderr).toMatch(/Something went wrong/);
    expect(read.stderr).not.toMatch(/Change what it names/);
    expect(read.stderr).toMatch(/this read changed nothing, so try again later/);
    const write = await sandbox.run(['user', 'create', ...borrower('ada.200@example.com'), '--password-stdin'], {
      ...noWait,
      stdin: 'pw',
    });
    expect(write.exitCode).toBe(1);
    expect(write.stderr).not.toMatch(/Change what it names|try again later/);
    expect(write.stderr).toMatch(/may or may not have been applied|Check whether the change was applied/);
    await clearFaults();
  });

  it('a fault that fired --times times stops, and clear removes every fault', async () => {
    await clearFaults();
    await addFault('--path', '/api/**', '--status', '429', '--envelope', 'error', '--times', '1');
    expect((await sandbox.run(['user', 'list'], noWait)).exitCode).toBe(0);
    expect((await faults())[0]).toMatchObject({ fired: 1 });
    await clearFaults();
    expect(await faults()).toEqual([]);
  });

  it('clear ID removes only that fault: the sandbox stops injecting it, the others stay', async () => {
    await clearFaults();
    const gone = await addFault('--path', '/api/v1/user', '--method', 'GET', '--status', '503', '--envelope', 'error');
    const kept = await addFault('--path', '/api/v1/user', '--method', 'POST', '--status', '500');
    expect((await sandbox.run(['user', 'list'], noWait)).exitCode).toBe(1);
    const result = await sandbox.run(['sandbox', 'faults', 'clear', String(gone.id), '--data-dir', sandbox.dataDir]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toBe(`Removed fault #${gone.id}.\n`);
    expect((await faults()).map((fault) => fault.id)).toEqual([kept.id]);
    expect((await sandbox.run(['user', 'list'], noWait)).exitCode).toBe(0);
  });

  it('clear with an id of no fault is exit 2 naming it, and removes nothing (not even the known ids)', async () => {
    await clearFaults();
    const { id } = await addFault('--path', '/api/v1/user', '--status', '503');
    const result = await sandbox.run(['sandbox', 'faults', 'clear', String(id), '999', '--data-dir', sandbox.dataDir]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/No fault #999 in .*; nothing was removed/);
    expect((await faults()).map((fault) => fault.id)).toEqual([id]);
    const bad = await sandbox.run(['sandbox', 'faults', 'clear', 'first', '--data-dir', sandbox.dataDir]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/A fault id is a number such as 2 .*got "first"/);
    expect((await faults()).map((fault) => fault.id)).toEqual([id]);
  });

  it('the request log names the fault that answered', async () => {
    await clearFaults();
    const { id } = await addFault('--path', '/api/v1/user', '--status', '503', '--envelope', 'error');
    expect((await sandbox.run(['user', 'list'], noWait)).exitCode).toBe(1);
    const log = await sandbox.run(['sandbox', 'logs', '--data-dir', sandbox.dataDir, '--status', '503', '-o', 'json']);
    expect(log.json<Array<{ why: string }>>().at(-1)?.why).toBe(`fault #${id} (loanctl sandbox faults list)`);
  });

  it('refuses a fault that would not fail: --status 200 without --envelope error (exit 2)', async () => {
    const result = await sandbox.run([
      'sandbox',
      'faults',
      'add',
      '--data-dir',
      sandbox.dataDir,
      '--path',
      '/api/**',
      '--status',
      '200',
    ]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--status 200 needs --envelope error/);
  });
});

describe('seeded faults', () => {
  /** The HTTP statuses of 30 GETs on a fresh sandbox with a 50 % fault of this seed. */
  async function sequence(seed: string): Promise<number[]> {
    const fresh = await openSandbox();
    try {
      const added = await runCli([
        'sandbox',
        'faults',
        'add',
        '--data-dir',
        fresh.dataDir,
        '--path',
        '/api/v1/user',
        '--status',
        '503',
        '--probability',
        '0.5',
        '--seed',
        seed,
      ]);
      expect(added.exitCode, added.stderr).toBe(0);
      const statuses: number[] = [];
      for (let n = 0; n < 30; n++) {
        const reply = await fresh.app.inject({
          url: '/api/v1/user',
          headers: { authorization: `Bearer ${fresh.org.api_key}` },
        });
        statuses.push(reply.statusCode);
      }
      return statuses;
    } finally {
      await fresh.close();
    }
  }

  it('the same seed gives the same sequence; another seed another one', async () => {
    const first = await sequence('7');
    expect(await sequence('7')).toEqual(first);
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await sequence('8')).not.toEqual(first);
  });
});

describe('faults on a read, which checks them in its own read transaction', () => {
  let fresh: TestSandbox;
  let home: ReturnType<typeof spawnHome>;
  beforeAll(async () => {
    assertBuilt();
    fresh = await openSandbox();
    home = spawnHome('loanctl-faults-read-');
  });
  afterAll(async () => {
    await fresh.close();
    home.remove();
  });

  /** The built CLI in a process of its own, on the sandbox's data dir. */
  async function faultsCommand(...args: string[]) {
    const result = await run({ env: home.env }, ['sandbox', 'faults', ...args, '--data-dir', fresh.dataDir]);
    expect(result.code, result.stderr).toBe(0);
    return result;
  }

  const list = () =>
    fresh.app.inject({
      url: `/api/v1/loan_request?product-id=${fresh.org.product_id}&direction=DESC`,
      headers: { authorization: `Bearer ${fresh.org.api_key}` },
    });

  it('answers the very next request with a fault another process added, and serves it again once cleared', async () => {
    expect((await list()).json()).toMatchObject({ status: 'success' });
    await faultsCommand('add', '--path', '/api/v1/loan_request', '--method', 'GET', '--status', '503');
    expect((await list()).statusCode).toBe(503);
    const counted = (await faultsCommand('list', '-o', 'json')).json<Array<{ matched: number; fired: number }>>();
    expect(counted).toEqual([expect.objectContaining({ matched: 1, fired: 1 })]);
    await faultsCommand('clear');
    const served = await list();
    expect(served.statusCode).toBe(200);
    expect(served.json()).toMatchObject({ status: 'success' });
  });

  it('waits the latency of a fault without a status, then serves the read as usual', async () => {
    await faultsCommand('add', '--path', '/api/v1/loan_request', '--latency', '300ms');
    const started = Date.now();
    const reply = await list();
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(reply.json()).toMatchObject({ status: 'success' });
    const counted = (await faultsCommand('list', '-o', 'json')).json<Array<{ matched: number; fired: number }>>();
    expect(counted).toEqual([expect.objectContaining({ matched: 1, fired: 1 })]);
    await faultsCommand('clear');
  });
});

/**
 * `loanctl/sandbox` (src/sandbox-api.ts) as a lender's test suite uses it: start, call the API with
 * its key, snapshot, reset, restore, seed, a clock set at start, stop. The packed tarball's export
 * is exercised by examples/sandbox-in-tests (CI); this runs the same module from src.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox-api.js';
import { tempDir } from '../helpers/sandbox.js';

const started: Sandbox[] = [];
afterEach(async () => {
  for (const sandbox of started.splice(0)) await sandbox.stop();
});

async function start(options: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const sandbox = await startSandbox(options);
  started.push(sandbox);
  return sandbox;
}

async function call(sandbox: Sandbox, method: string, path: string, body?: unknown) {
  const reply = await fetch(`${sandbox.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return (await reply.json()) as { status: string; data: unknown };
}

const ADA = {
  firstname: 'Ada',
  lastname: 'Obi',
  email: 'ada@example.com',
  password: 'pw',
  phone: '+2348012345678',
  gender: 'female',
};
const emails = async (sandbox: Sandbox) =>
  ((await call(sandbox, 'GET', '/user')).data as Array<{ email: string }>).map((user) => user.email);

describe('startSandbox', () => {
  it('serves the API with its own key; snapshot, reset and restore change what it answers', async () => {
    const sandbox = await start();
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.productId).toBeGreaterThan(0);
    expect((await call(sandbox, 'POST', '/user', ADA)).status).toBe('success');
    await sandbox.snapshot('one-borrower');
    await sandbox.reset();
    expect(await emails(sandbox)).toEqual([]);
    await sandbox.restore('one-borrower');
    expect(await emails(sandbox)).toEqual(['ada@example.com']);
  });

  it('seeds from a file at start and on demand, and its temporary data dir is gone after stop', async () => {
    const file = join(tempDir(), 'two-borrowers.yaml');
    // `${i}`: the seed file's own placeholder, the row's number (docs/sandbox.md#seed-files).
    const step = `{ name: borrower, op: createUser, count: 2, body: ${JSON.stringify({ ...ADA, email: 'b$' + '{i}@example.com' })} }`;
    writeFileSync(file, `steps:\n  - ${step}\n`);
    const sandbox = await startSandbox({ seed: file });
    expect(await emails(sandbox)).toHaveLength(2);
    const result = await sandbox.seed(file);
    expect(result).toMatchObject({ steps: [{ name: 'borrower', op: 'createUser', calls: 2 }], orgId: sandbox.orgId });
    await sandbox.stop();
    expect(existsSync(sandbox.dataDir)).toBe(false);
  });

  it('a stopped sandbox refuses reset, snapshot, restore and seed, and makes no data dir again', async () => {
    const sandbox = await start();
    await sandbox.stop();
    for (const [method, attempt] of [
      ['reset', () => sandbox.reset()],
      ['snapshot', () => sandbox.snapshot('late')],
      ['restore', () => sandbox.restore('late')],
      ['seed', () => sandbox.seed('none.yaml')],
    ] as const) {
      await expect(attempt()).rejects.toThrow(
        `startSandbox: ${method}() after stop(): this sandbox is stopped; start another.`,
      );
    }
    expect(existsSync(sandbox.dataDir)).toBe(false);
    await sandbox.stop(); // again: nothing to do
  });

  it('keeps a data dir it was given, and its clock starts where it was set', async () => {
    const dataDir = tempDir();
    const sandbox = await start({ dataDir, clock: '2030-01-01T09:00:00Z' });
    const created = (await call(sandbox, 'POST', '/user', ADA)).data as { created_at: string };
    expect(created.created_at.slice(0, 10)).toBe('2030-01-01');
    await sandbox.stop();
    started.splice(0);
    expect(existsSync(dataDir)).toBe(true);
    const again = await start({ dataDir });
    expect(again.apiKey).toBe(sandbox.apiKey);
    expect(await emails(again)).toEqual(['ada@example.com']);
  });

  it('refuses a clock that is not a time', async () => {
    await expect(startSandbox({ clock: 'next tuesday' })).rejects.toThrow('is not a time');
  });
});

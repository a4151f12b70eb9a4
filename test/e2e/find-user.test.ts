/**
 * Finding a borrower by e-mail: the newest of 100,000 in 1 request, the first time and again; an
 * older one in a few; an unknown e-mail in 2, and never the wrong borrower after the sandbox behind the
 * same base URL was reset. Requests are counted at the HTTP boundary (a proxy in front of the
 * sandbox), not timed.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CountingProxy, countingProxy } from '../helpers/counting-proxy.js';
import { type CliSandbox, cliSandbox, envWith } from '../helpers/run-cli.js';
import { seedBorrowers } from '../helpers/seed-rows.js';

const lookups = (proxy: CountingProxy) => proxy.seen.filter((line) => line.startsWith('GET /api/v1/user'));

describe('finding a borrower by e-mail', () => {
  let sandbox: CliSandbox;
  let proxy: CountingProxy;
  let env: Record<string, string | undefined>;

  beforeAll(async () => {
    sandbox = await cliSandbox();
    // Older borrowers first (a year, then a month ago), then 100,000 today: the newest is the last
    // page of the whole list, and the first of today's window (the sandbox lists a window newest first).
    seedBorrowers(sandbox, 1, 500, { daysAgo: 365 });
    seedBorrowers(sandbox, 501, 500, { daysAgo: 30 });
    seedBorrowers(sandbox, 1001, 100_000);
    proxy = await countingProxy(sandbox.url);
    env = envWith(sandbox.env, { LOANCTL_BASE_URL: proxy.url });
  }, 120_000);

  afterAll(async () => {
    await proxy?.close();
    await sandbox?.close();
  });

  const createLoan = (email: string) =>
    sandbox.run(['loan', 'create', '--user', email, '--amount', '5000', '--purpose', 'Stock', '-o', 'json'], { env });

  it('finds the newest of 100,000 borrowers in 1 request (page 1 of those created since yesterday), and again in 1', async () => {
    proxy.seen.length = 0;
    const first = await createLoan('borrower-101000@find.example');
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.json<{ user_id: number }>().user_id).toBe(101_000);
    expect(lookups(proxy)).toHaveLength(1);

    proxy.seen.length = 0;
    const again = await createLoan('Borrower-101000@find.example');
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.json<{ user_id: number }>().user_id).toBe(101_000);
    expect(lookups(proxy)).toHaveLength(1);
  });

  it('finds the oldest borrower among 101,000 in a few requests', async () => {
    proxy.seen.length = 0;
    const found = await createLoan('borrower-7@find.example');
    expect(found.exitCode, found.stderr).toBe(0);
    expect(found.json<{ user_id: number }>().user_id).toBe(7);
    expect(lookups(proxy).length).toBeLessThanOrEqual(20);
  });

  it('says an unknown e-mail is unknown after two requests: the page of the newest, then user exists (exit 4)', async () => {
    proxy.seen.length = 0;
    const unknown = await createLoan('nobody@find.example');
    expect(unknown.exitCode).toBe(4);
    expect(unknown.stderr).toContain('No user with e-mail nobody@find.example');
    expect(proxy.seen).toEqual([
      expect.stringMatching(/^GET \/api\/v1\/user\?start=\d{4}-\d{2}-\d{2}&pages=1$/),
      'GET /api/v1/user/actions?email=nobody%40find.example&action=exists',
    ]);
  });

  it('keeps its index in the cache directory, and `loanctl cache clear` removes it', async () => {
    const dir = join(env.LOANCTL_CONFIG_DIR as string, 'cache');
    const indexes = () => readdirSync(dir).filter((name) => name.endsWith('.idx'));
    expect(indexes()).toHaveLength(1);
    const files = readdirSync(dir).length;
    const cleared = await sandbox.run(['cache', 'clear'], { env });
    expect(cleared.exitCode).toBe(0);
    expect(cleared.stderr).toBe(`Removed ${files} index file${files === 1 ? '' : 's'} from ${dir}.\n`);
    expect(cleared.json()).toEqual({ dir, removed: files });
    const again = await sandbox.run(['cache', 'clear', '-o', 'csv', '--fields', 'removed'], { env });
    expect(again.stdout).toBe('removed\n0\n');
    expect(indexes()).toEqual([]);
    expect(existsSync(dir)).toBe(true);
  });
});

describe('a sandbox reset behind the same base URL', () => {
  it('never sends the loan to the borrower who now has the remembered id', async () => {
    const before = await cliSandbox();
    const after = await cliSandbox();
    const proxy = await countingProxy(before.url);
    const env = envWith(before.env, { LOANCTL_BASE_URL: proxy.url });
    try {
      seedBorrowers(before, 1, 1); // borrower-1 is user 1 here…
      seedBorrowers(after, 2, 1); // …and after the reset user 1 is borrower-2,
      seedBorrowers(after, 1, 1); // while borrower-1 is user 2.
      const loan = ['loan', 'create', '--user', 'borrower-1@find.example', '--amount', '5000', '--purpose', 'Stock'];
      const first = await before.run([...loan, '-o', 'json'], { env });
      expect(first.json<{ user_id: number }>().user_id).toBe(1);

      proxy.retarget(after.url);
      const afterEnv = envWith(env, { LOANCTL_API_KEY: after.api_key, LOANCTL_PRODUCT_ID: String(after.product_id) });
      const second = await after.run([...loan, '-o', 'json'], { env: afterEnv });
      expect(second.exitCode, second.stderr).toBe(0);
      expect(second.json<{ user_id: number }>().user_id).toBe(2);
    } finally {
      await proxy.close();
      await before.close();
      await after.close();
    }
  });
});

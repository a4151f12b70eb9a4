/**
 * A bulk file keyed by e-mails of borrowers created long ago, the first time (no local index): its
 * rows share one walk of the user list, so each page is asked for once, and the walk goes only as
 * far as the newest borrower the file names, whatever the order of its rows. Requests are counted
 * at the HTTP boundary (a proxy in front of the sandbox).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WALK_AHEAD } from '../../src/domain/borrower-walk.js';
import { type CountingProxy, countingProxy } from '../helpers/counting-proxy.js';
import { type CliSandbox, cliSandbox, envWith } from '../helpers/run-cli.js';
import { seedBorrowers } from '../helpers/seed-rows.js';

/** The sandbox's page of users (src/sandbox/handlers/users.ts). */
const PAGE = 50;
const BORROWERS = 6000;
/** The page of each row's borrower, in the file's order: the first eight are looked up at once (--concurrency 8). */
const ROW_PAGES = [60, 3, 100, 24, 82, 7, 44, 36, 2, 90];
const NEWEST_PAGE = Math.max(...ROW_PAGES);
/** A borrower on that page. */
const idOn = (page: number) => PAGE * (page - 1) + 17;

let sandbox: CliSandbox;
let proxy: CountingProxy;
const dir = mkdtempSync(join(tmpdir(), 'loanctl-bulk-lookup-'));
/** The CLI's config dir, and so its cache: no index before the first run. */
const config = join(dir, 'config');

/** Each row's user id, in the file's order, every row a success. */
function userIds(stdout: string): number[] {
  const results = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { row: number; status: string; user_id: number });
  expect(results.map((result) => [result.row, result.status])).toEqual(results.map((_, at) => [at + 1, 'success']));
  return results.map((result) => result.user_id);
}

beforeAll(async () => {
  sandbox = await cliSandbox();
  // A month old: none is among those created since yesterday, so each row's e-mail needs the walk.
  seedBorrowers(sandbox, 1, BORROWERS, { daysAgo: 30, domain: 'walk.example' });
  proxy = await countingProxy(sandbox.url);
}, 120_000);
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('loan create --from keyed by old e-mails, with no local index', () => {
  it('walks the user list once, as far as the newest borrower of the file', async () => {
    const file = join(dir, 'loans.csv');
    const rows = ROW_PAGES.map((page, at) => `borrower-${idOn(page)}@walk.example,${5000 + at},Stock ${at}`);
    writeFileSync(file, `user,amount,purpose\n${rows.join('\n')}\n`);
    const env = envWith(sandbox.env, { LOANCTL_BASE_URL: proxy.url, LOANCTL_CONFIG_DIR: config });

    const run = await sandbox.run(['loan', 'create', '--from', file, '-o', 'ndjson'], { env });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(userIds(run.stdout)).toEqual(ROW_PAGES.map(idOn));

    const pages = proxy.seen.flatMap((line) => /^GET \/api\/v1\/user\?pages=(\d+)$/.exec(line)?.[1] ?? []).map(Number);
    // One walk: the pages up to the newest borrower's, and at most the few asked for ahead of it.
    // Besides, a row that starts after the walk has read its borrower's page (the ninth starts
    // once a row is done) is answered by the index: that page is asked for once more, to confirm it.
    expect(Math.max(...pages)).toBeLessThanOrEqual(NEWEST_PAGE + WALK_AHEAD);
    for (let page = 1; page <= NEWEST_PAGE; page++) expect(pages, `page ${page}`).toContain(page);
    expect(pages.length).toBeLessThanOrEqual(NEWEST_PAGE + WALK_AHEAD + ROW_PAGES.length);
  });

  it('again, with the index the first run left: each row is its borrower, confirmed by one page, no walk', async () => {
    // Rows of their own (another purpose each): the journal of the first run does not skip them.
    const file = join(dir, 'again.csv');
    const rows = ROW_PAGES.map((page, at) => `borrower-${idOn(page)}@walk.example,${6000 + at},Again ${at}`);
    writeFileSync(file, `user,amount,purpose\n${rows.join('\n')}\n`);
    const env = envWith(sandbox.env, { LOANCTL_BASE_URL: proxy.url, LOANCTL_CONFIG_DIR: config });
    proxy.seen.length = 0;

    const run = await sandbox.run(['loan', 'create', '--from', file, '-o', 'ndjson'], { env });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(userIds(run.stdout)).toEqual(ROW_PAGES.map(idOn));
    const pages = proxy.seen.flatMap((line) => /^GET \/api\/v1\/user\?pages=(\d+)$/.exec(line)?.[1] ?? []).map(Number);
    expect(pages.sort((a, b) => a - b)).toEqual([...ROW_PAGES].sort((a, b) => a - b));
  });
});

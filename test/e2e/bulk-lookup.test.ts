/**
 * A bulk file keyed by e-mails of borrowers created long ago, the first time (no local index): its
 * rows share one walk of the user list, so each page is asked for once, and the walk goes only as
 * far as the newest borrower the file names, whatever the order of its rows. A walk that fails or
 * is cancelled half-way keeps the pages it read; an index that no longer matches the list (a sandbox
 * reset) is rebuilt once, whatever the timing of the rows. Requests are counted at the HTTP boundary (a proxy
 * in front of the sandbox), where a page is also made to fail or to hang.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WALK_AHEAD } from '../../src/domain/borrower-walk.js';
import { resetData } from '../../src/sandbox/control/state.js';
import { dbPathFor, SandboxDb } from '../../src/sandbox/db.js';
import { assertBuilt, LOANCTL } from '../helpers/cli.js';
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

/** The pages of the user list asked for in page order (not a date window's), as the proxy saw them. */
function listPages(): number[] {
  return proxy.seen.flatMap((line) => /^GET \/api\/v1\/user\?pages=(\d+)$/.exec(line)?.[1] ?? []).map(Number);
}

/** A bulk file of loans for the borrowers on these pages, and the env of a run with `configDir` through the proxy. */
function loanFile(name: string, rowPages: readonly number[], configDir: string) {
  const file = join(dir, `${name}.csv`);
  const rows = rowPages.map((page, at) => `borrower-${idOn(page)}@walk.example,${7000 + at},${name} ${at}`);
  writeFileSync(file, `user,amount,purpose\n${rows.join('\n')}\n`);
  return { file, env: envWith(sandbox.env, { LOANCTL_BASE_URL: proxy.url, LOANCTL_CONFIG_DIR: configDir }) };
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

describe('a walk that stops half-way keeps the pages it read', () => {
  /** The page the walk cannot get past; the rows' borrowers are beyond it. */
  const STOP = 40;
  const pageLine = (page: number) => `GET /api/v1/user?pages=${page}`;

  /** The next look-up, with the index the stopped run left, walks on from the last page read. */
  async function nextLookUpWalksOnFrom(configDir: string, page: number) {
    proxy.intercept = undefined;
    proxy.seen.length = 0;
    const { env } = loanFile('unused', [], configDir);
    const shown = await sandbox.run(['user', 'show', `borrower-${idOn(100)}@walk.example`, '-o', 'json'], { env });
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout).id).toBe(idOn(100));
    const pages = listPages();
    expect(pages[0]).toBe(page);
    expect(Math.min(...pages)).toBe(page);
  }

  it('a page that fails (503, after the retries) fails its rows; the next look-up walks on from the page before it', async () => {
    const configDir = join(dir, 'failed-config');
    const { file, env } = loanFile('failed', [60, 100], configDir);
    proxy.intercept = (line) => (line === pageLine(STOP) ? 503 : undefined);
    proxy.seen.length = 0;

    const run = await sandbox.run(['loan', 'create', '--from', file, '-o', 'ndjson'], { env });
    expect(run.exitCode, run.stderr).toBe(1);
    expect(listPages()).toContain(1);

    await nextLookUpWalksOnFrom(configDir, STOP - 1);
  });

  it('Ctrl-C while a page hangs: exit 130, and the next look-up walks on from the last page read', async () => {
    assertBuilt();
    const configDir = join(dir, 'interrupted-config');
    const { file, env } = loanFile('interrupted', [60, 100], configDir);
    let hanging = false;
    proxy.intercept = (line) => {
      if (line !== pageLine(STOP)) return undefined;
      hanging = true;
      return new Promise(() => {}); // never answered: only the interrupt ends the run
    };
    proxy.seen.length = 0;

    const [command, ...args] = LOANCTL;
    const child = execa(command, [...args, 'loan', 'create', '--from', file, '-o', 'ndjson'], {
      env,
      extendEnv: false,
      reject: false,
    });
    // The page after the last one read before it is asked for once that page has arrived.
    const lastRead = STOP - 1;
    for (let waited = 0; !(hanging && listPages().includes(lastRead + WALK_AHEAD)); waited += 20) {
      if (waited > 30_000) throw new Error(`the walk asked for pages ${listPages().join(' ')} in 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode, result.stderr).toBe(130);

    await nextLookUpWalksOnFrom(configDir, lastRead);
  }, 60_000);
});

// Last: it empties the sandbox.
describe('after a sandbox reset, the index no longer matches the list', () => {
  it('a bulk file rebuilds it once, also for a row whose check comes back after the rebuild ended', async () => {
    const configDir = join(dir, 'reset-config');
    const before = loanFile('indexed', [100], configDir);
    const indexed = await sandbox.run(['loan', 'create', '--from', before.file, '-o', 'ndjson'], { env: before.env });
    expect(indexed.exitCode, indexed.stderr).toBe(0);
    // The same e-mails on the same pages, under new ids (ids keep increasing across a reset).
    const db = SandboxDb.open(dbPathFor(sandbox.dataDir));
    try {
      resetData(db);
    } finally {
      db.close();
    }
    seedBorrowers(sandbox, 1, BORROWERS, { daysAgo: 30, domain: 'walk.example' });

    // Each row checks its borrower's page (the index names one), finds another id there, and walks
    // the list again. The first row's check is held back until the others are done: the walk they
    // rode stopped at page 100, and the first row comes back to find no walk in progress.
    const rowPages = [60, 3, 100, 24];
    const { file, env } = loanFile('after-reset', rowPages, configDir);
    let held = false;
    proxy.intercept = async (line) => {
      if (held || line !== 'GET /api/v1/user?pages=60') return undefined;
      held = true;
      const posts = () => proxy.seen.filter((seen) => seen.startsWith('POST ')).length;
      for (let waited = 0; posts() < rowPages.length - 1 && waited < 20_000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return undefined;
    };
    proxy.seen.length = 0;

    const run = await sandbox.run(['loan', 'create', '--from', file, '-o', 'ndjson'], { env });
    proxy.intercept = undefined;
    expect(run.exitCode, run.stderr).toBe(0);
    expect(userIds(run.stdout)).toEqual(rowPages.map((page) => BORROWERS + idOn(page)));
    expect(listPages().filter((page) => page === 1)).toHaveLength(1);
  });
});

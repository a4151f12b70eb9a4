/**
 * The request log: what the sandbox records for each request (including why a refusal was
 * refused), what it hides (passwords, the key), how `loanctl sandbox logs` filters and prints it,
 * that it stays bounded, and `--follow`.
 */

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSandboxLogs } from '../../src/commands/sandbox/logs.js';
import { createDeps } from '../../src/deps.js';
import { buildSandbox } from '../../src/sandbox/app.js';
import { dbPathFor } from '../../src/sandbox/db.js';
import {
  BODY_LIMIT,
  CHECKPOINT_BYTES,
  ENDED,
  LogAppender,
  type LogRow,
  type NewLogRow,
  openLogForWriting,
} from '../../src/sandbox/log/store.js';
import { fakeIo } from '../helpers/fake-io.js';
import { holdWriteLock, releaseWriteLock } from '../helpers/lock-holder.js';
import { isolatedCliEnv, runCli } from '../helpers/run-cli.js';
import { call, openSandbox, seedLoanRequest, type TestSandbox, userBody } from '../helpers/sandbox.js';

type Entry = LogRow;

let sandbox: TestSandbox;
const PASSWORD = 'correct horse battery staple';

async function logs(...flags: string[]) {
  const result = await runCli(['sandbox', 'logs', '--data-dir', sandbox.dataDir, ...flags]);
  expect(result.exitCode, result.stderr).toBe(0);
  return result;
}

async function entries(...flags: string[]): Promise<Entry[]> {
  return (await logs('-o', 'json', '--limit', '1000', ...flags)).json<Entry[]>();
}

beforeAll(async () => {
  sandbox = await openSandbox({ observe: { requestLog: { flushMs: 0 } } });
  const { org } = sandbox;
  await call(sandbox.app, 'createUser', { key: org.api_key, body: userBody({ password: PASSWORD }) });
  await seedLoanRequest(sandbox.app, org);
  await call(sandbox.app, 'listUsers', { key: null });
  await call(sandbox.app, 'listUsers', { key: 'sk_test_not_a_key_at_all' });
  await call(sandbox.app, 'listLoanRequests', { key: org.api_key, query: { direction: 'ASC' } });
  await call(sandbox.app, 'listLoanRequests', {
    key: org.api_key,
    productId: org.product_id,
    query: { direction: 'ASC' },
  });
  await call(sandbox.app, 'createUser', { key: org.api_key, body: userBody({ email: 'not an e-mail' }) });
  await call(sandbox.app, 'getProgress', { key: org.api_key, params: { id: 999_999 }, productId: org.product_id });
  await sandbox.app.inject({
    url: `/api/v1/user?pages=1&leak=${org.api_key}`,
    headers: { authorization: `Bearer ${org.api_key}` },
  });
});
afterAll(async () => {
  await sandbox.close();
});

describe('what is recorded', () => {
  it('a success: time, organisation, method, path, query, HTTP and envelope status, latency, bodies', async () => {
    const listed = (await entries('--status', 'success')).find((entry) => entry.path === '/api/v1/loan_request');
    expect(listed).toMatchObject({
      org_id: sandbox.org.org_id,
      method: 'GET',
      query: expect.stringContaining(`product-id=${sandbox.org.product_id}`),
      status: 'success',
      why: null,
      reply_body: expect.stringMatching(/^\{"status":"success"/),
    });
    expect(Date.parse(listed?.time ?? '')).not.toBeNaN();
    expect(listed?.ms).toBeGreaterThanOrEqual(0);
  });

  it('a refusal says which check failed', async () => {
    const whys = (await entries('--status', 'refused')).map((entry) => `${entry.http} ${entry.status} ${entry.why}`);
    expect(whys).toEqual(
      expect.arrayContaining([
        '401 error missing API key',
        '401 error bad API key',
        '200 error missing product id',
        expect.stringMatching(/^400 error Invalid fields: email \(/),
        '200 no-access no access to loan request 999999',
      ]),
    );
  });

  it('passwords and the API key are never written, in the entries or anywhere in the files', async () => {
    const created = (await entries('--path', '/api/v1/user')).find((entry) => entry.method === 'POST');
    expect(created?.request_body).toContain('"password":"***"');
    const leaked = (await entries()).find((entry) => entry.query.startsWith('pages=1&leak='));
    expect(leaked?.query).toBe('pages=1&leak=***');
    for (const file of readdirSync(sandbox.dataDir).filter((name) => name.startsWith('requests.db'))) {
      const bytes = readFileSync(join(sandbox.dataDir, file), 'latin1');
      expect(bytes, file).not.toContain(PASSWORD);
      expect(bytes, file).not.toContain(sandbox.org.api_key);
    }
  });
});

describe('loanctl sandbox logs', () => {
  it('--status picks classes, codes and envelope statuses', async () => {
    expect((await entries('--status', '4xx')).map((entry) => entry.http).sort()).toEqual([400, 401, 401]);
    expect((await entries('--status', 'no-access')).map((entry) => entry.why)).toEqual([
      'no access to loan request 999999',
    ]);
  });

  it('--path takes a glob, --limit keeps the newest (oldest first), --since a duration', async () => {
    const loans = await entries('--path', '/api/v1/loan_request/**');
    expect(loans.length).toBeGreaterThan(0);
    expect(loans.every((entry) => entry.path.startsWith('/api/v1/loan_request/'))).toBe(true);
    const all = await entries();
    const lastTwo = await entries('--limit', '2');
    expect(lastTwo.map((entry) => entry.id)).toEqual(all.slice(-2).map((entry) => entry.id));
    const later = await runCli(['sandbox', 'logs', '--data-dir', sandbox.dataDir, '--since', '10m', '-o', 'json'], {
      now: () => new Date(Date.now() + 3_600_000),
    });
    expect(later.json()).toEqual([]);
  });

  it('-o ndjson prints one entry a line; a table shows the reason column', async () => {
    const ndjson = (await logs('-o', 'ndjson', '--limit', '3')).stdout.trim().split('\n');
    expect(ndjson.map((line) => Object.keys(JSON.parse(line)))).toHaveLength(3);
    const table = (await logs('-o', 'table', '--status', 'no-access')).stdout;
    expect(table).toMatch(/time\s+org id\s+method\s+path\s+http\s+status\s+ms\s+why/i);
    expect(table).toMatch(/\d\d:\d\d:\d\d\.\d{3} UTC/);
    expect(table).toContain('no access to loan request 999999');
  });

  it('-o csv and --fields pick its fields; a --fields naming none is exit 2, whatever the log holds', async () => {
    const csv = (await logs('-o', 'csv', '--fields', 'method,http,why', '--status', 'no-access')).stdout;
    expect(csv).toBe('method,http,why\nGET,200,no access to loan request 999999\n');
    const unknown = await runCli(['sandbox', 'logs', '--data-dir', sandbox.dataDir, '-o', 'json', '--fields', 'nope']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('--fields: unknown field "nope". Valid fields: id, time, org_id');
    const empty = await runCli([
      'sandbox',
      'logs',
      '--data-dir',
      sandbox.dataDir,
      '--path',
      '/nowhere',
      '-o',
      'json',
      '--fields',
      'nope',
    ]);
    expect(empty.exitCode).toBe(2);
    const matched = await logs('--path', '/nowhere', '-o', 'json', '--fields', 'method');
    expect(matched.json()).toEqual([]);
  });

  it('refuses an unknown --status with the values it takes (exit 2)', async () => {
    const result = await runCli(['sandbox', 'logs', '--data-dir', sandbox.dataDir, '--status', 'teapot']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--status: "teapot" is not a status\. Use 2xx, 4xx, 5xx/);
  });

  it('--follow prints entries as the sandbox writes them, until stopped', async () => {
    const io = fakeIo();
    const stop = new AbortController();
    const deps = createDeps({ io, env: isolatedCliEnv(), globals: { output: 'ndjson' } });
    const following = runSandboxLogs(
      { dataDir: sandbox.dataDir, follow: true, limit: '1', stopSignal: stop.signal },
      deps,
    );
    await call(sandbox.app, 'listUsers', { key: sandbox.org.api_key, query: { pages: 42 } });
    await expect.poll(() => io.stdout.text(), { timeout: 10_000 }).toContain('pages=42');
    stop.abort();
    await following;
    const lines = io.stdout
      .text()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Entry);
    expect(lines.at(-1)).toMatchObject({ path: '/api/v1/user', query: 'pages=42', status: 'success' });
  });
});

describe('bounded on disk', () => {
  it('keeps about the newest maxRows entries, pruning in batches', async () => {
    const small = await openSandbox({ observe: { requestLog: { flushMs: 0, maxRows: 5 } } });
    try {
      for (let n = 1; n <= 40; n++) await call(small.app, 'listUsers', { key: small.org.api_key, query: { pages: n } });
      const db = new DatabaseSync(join(small.dataDir, 'requests.db'), { readOnly: true });
      const rows = db.prepare('SELECT query FROM request_log ORDER BY id').all() as Array<{ query: string }>;
      db.close();
      expect(rows.length).toBeLessThanOrEqual(10);
      expect(rows.at(-1)?.query).toBe('pages=40');
    } finally {
      await small.close();
    }
  });
});

describe('its pages', () => {
  const pageSize = (dataDir: string) => {
    const db = new DatabaseSync(join(dataDir, 'requests.db'), { readOnly: true });
    try {
      return (db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size;
    } finally {
      db.close();
    }
  };

  it('its write-ahead file stays about 4 MB', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'loanctl-log-wal-'));
    try {
      const path = join(dataDir, 'requests.db');
      const db = openLogForWriting(path);
      const appender = new LogAppender(db, 100_000);
      const row: NewLogRow = {
        time: new Date().toISOString(),
        org_id: 1,
        method: 'GET',
        path: '/api/v1/user',
        query: '',
        http: 200,
        status: 'success',
        ms: 1,
        why: null,
        request_body: null,
        reply_body: 'x'.repeat(BODY_LIMIT),
        ended: ENDED.answered,
        prefer: null,
        violations: null,
      };
      // ~14 MB of entries, committed 500 at a time as the server does.
      for (let n = 1; n <= 6_000; n++) {
        appender.append(row);
        if (n % 500 === 0) appender.commit();
      }
      expect(statSync(`${path}-wal`).size).toBeLessThan(CHECKPOINT_BYTES + 2 * 1024 * 1024);
      db.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a log made with other pages (64 KB) keeps them and is still written', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'loanctl-old-log-'));
    try {
      const old = new DatabaseSync(join(dataDir, 'requests.db'));
      old.exec('PRAGMA page_size = 65536; PRAGMA journal_mode = WAL; CREATE TABLE unrelated (x)');
      old.close();
      const app = await buildSandbox({ dbPath: dbPathFor(dataDir), requestLog: { flushMs: 0 } });
      try {
        expect((await app.inject({ method: 'GET', url: '/api/v1/user' })).statusCode).toBe(401);
      } finally {
        await app.close();
      }
      expect(pageSize(dataDir)).toBe(65_536);
      const db = new DatabaseSync(join(dataDir, 'requests.db'), { readOnly: true });
      const rows = db.prepare('SELECT path, http FROM request_log').all();
      db.close();
      expect(rows).toEqual([{ path: '/api/v1/user', http: 401 }]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('another process holds the log file', () => {
  it('keeps answering, says so once, drops what it cannot write, and logs again once the lock is gone', async () => {
    const errors: unknown[] = [];
    const other = await openSandbox({ observe: { requestLog: false } });
    const app = await buildSandbox({
      dbPath: dbPathFor(other.dataDir),
      requestLog: { flushMs: 0 },
      onError: (error) => errors.push(error),
    });
    const holder = await holdWriteLock(join(other.dataDir, 'requests.db'));
    try {
      const list = (pages: number) => call(app, 'listUsers', { key: other.org.api_key, query: { pages } });
      for (const pages of [1, 2, 3]) expect((await list(pages)).json.status).toBe('success');
      expect(errors).toHaveLength(1);
      expect(String(errors[0])).toMatch(/locked/);

      await releaseWriteLock(holder);
      await list(4);
      const db = new DatabaseSync(join(other.dataDir, 'requests.db'), { readOnly: true });
      const rows = db.prepare('SELECT query FROM request_log ORDER BY id').all() as Array<{ query: string }>;
      db.close();
      expect(rows.map((row) => row.query)).toEqual(['pages=4']);
    } finally {
      holder.kill();
      await app.close();
      await other.close();
    }
  });
});

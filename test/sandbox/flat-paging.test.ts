// Every page, lookup and show costs the same at any size. Timings belong to
// bench/, so this holds the sandbox to it by SQLite's own plans: every statement the repositories
// prepare is a search through an index, never a scan of a table (a one-row SELECT of subqueries
// "scans" its constant row: fine), never a sort of what it found, never an OFFSET walk — the user
// list inside a date window included. And a sandbox persisted by an older version migrates
// to these indexes, with the same pages as before.
import { rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxDb } from '../../src/sandbox/db.js';
import { createRepos } from '../../src/sandbox/repos/index.js';
import { MIGRATIONS } from '../../src/sandbox/repos/migrations.js';
import { hashApiKey } from '../../src/sandbox/secrets.js';
import { call, openSandbox, tempDir, userBody } from '../helpers/sandbox.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Every statement `createRepos` prepares on `db`, as SQL text. */
function preparedStatements(db: SandboxDb): string[] {
  const seen: string[] = [];
  const prepare = db.sqlite.prepare.bind(db.sqlite);
  Object.defineProperty(db.sqlite, 'prepare', {
    configurable: true,
    value: (sql: string) => {
      seen.push(sql);
      return prepare(sql);
    },
  });
  try {
    createRepos(db);
  } finally {
    Reflect.deleteProperty(db.sqlite, 'prepare');
  }
  return seen;
}

/** SQLite's plan for `sql`: one line per step, e.g. `SEARCH users USING INDEX users_org_seq (org_id=? AND org_seq>?)`. */
function planOf(sqlite: DatabaseSync, sql: string): string[] {
  return (sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((step) => step.detail);
}

const isWindowPage = (sql: string) => /:first_day/.test(sql);
const isUserPage = (sql: string) => /FROM users WHERE org_id = :org_id AND org_seq > :skipped/.test(sql);
const isLoanRequestPage = (sql: string) => /lr\.id [<>] :cursor ORDER BY/.test(sql);

/** What makes a statement's cost grow with the table: a scan, a sort, or skipping rows one by one. */
function growthOf(sqlite: DatabaseSync, sql: string): string[] {
  const problems = planOf(sqlite, sql).filter((step) => /^SCAN (?!CONSTANT ROW)|TEMP B-TREE/.test(step));
  if (/\bOFFSET\b/i.test(sql)) problems.push('OFFSET');
  return problems;
}

function expectFlat(db: SandboxDb): void {
  const statements = preparedStatements(db);
  const grows = statements
    .map((sql) => ({ sql: sql.replace(/\s+/g, ' ').trim(), growth: growthOf(db.sqlite, sql) }))
    .filter((statement) => statement.growth.length > 0);
  expect(grows).toEqual([]);

  const planOfOne = (matches: (sql: string) => boolean) => {
    const found = statements.filter(matches);
    expect(found.length).toBeGreaterThan(0);
    return found.flatMap((sql) => planOf(db.sqlite, sql));
  };
  // The pages seek: the user list by its per-organisation number, the loan requests by id in an
  // index of only the rows they list (a page never steps over deleted ones).
  expect(planOfOne(isUserPage).join('\n')).toMatch(
    /SEARCH users USING INDEX users_org_seq \(org_id=\? AND org_seq>\?\)/,
  );
  const loanRequestSteps = planOfOne(isLoanRequestPage).filter((step) => step.startsWith('SEARCH lr '));
  expect(loanRequestSteps).toHaveLength(2); // ASC and DESC
  for (const step of loanRequestSteps) {
    expect(step).toMatch(/USING INDEX loan_requests_listed \(org_id=\? AND product_id=\? AND id[<>]\?\)/);
  }
  // A date window steps back day by day, and seeks to its page by (day, number within the day).
  for (const step of planOfOne((sql) => isWindowPage(sql) || /day_seq <= :day_seq/.test(sql))) {
    expect(step).toMatch(/^SEARCH users USING (COVERING )?INDEX users_org_day \(org_id=\? AND <expr>/);
  }
  // A new user's numbers are seeks too: the last org_seq, the last day_seq of its day.
  const insertSteps = planOfOne((sql) => sql.startsWith('INSERT INTO users')).filter((step) =>
    step.startsWith('SEARCH'),
  );
  expect(insertSteps).toEqual([
    expect.stringMatching(/USING COVERING INDEX users_org_seq \(org_id=\?\)/),
    expect.stringMatching(/USING COVERING INDEX users_org_day \(org_id=\? AND <expr>=\?\)/),
  ]);
}

describe('a date window', () => {
  it('pages newest first — by day, then by id within the day — and its pages add up to the window exactly', async () => {
    const sandbox = await openSandbox();
    try {
      const key = sandbox.org.api_key;
      // Days created out of order (the sandbox clock moved back), each spilling over a page of 50.
      const created: { id: number; day: string }[] = [];
      for (const [day, count] of [
        ['2026-03-02', 60],
        ['2026-03-04', 30],
        ['2026-03-03', 45],
      ] as const) {
        sandbox.setNow(new Date(`${day}T10:00:00.000Z`));
        for (let i = 0; i < count; i++) await call(sandbox.app, 'createUser', { key, body: userBody() });
        const page = await call(sandbox.app, 'listUsers', { key, query: { start: day, end: day } });
        const newest = (page.json.data as { id: number }[])[0]?.id as number;
        for (let id = newest - count + 1; id <= newest; id++) created.push({ id, day });
      }
      const walk = async (query: Record<string, string>) => {
        const ids: number[] = [];
        for (let pages = 1; ; pages++) {
          const page = (await call(sandbox.app, 'listUsers', { key, query: { ...query, pages } })).json.data as {
            id: number;
          }[];
          if (page.length === 0) return ids;
          expect(page.length).toBeLessThanOrEqual(50);
          ids.push(...page.map((user) => user.id));
        }
      };
      const newestFirst = (days: string[]) =>
        created
          .filter((user) => days.includes(user.day))
          .sort((a, b) => b.day.localeCompare(a.day) || b.id - a.id)
          .map((user) => user.id);
      expect(await walk({ start: '2026-03-01' })).toEqual(newestFirst(['2026-03-02', '2026-03-03', '2026-03-04']));
      expect(await walk({ end: '2026-03-03' })).toEqual(newestFirst(['2026-03-02', '2026-03-03']));
      expect(await walk({ start: '2026-03-03', end: '2026-03-04' })).toEqual(newestFirst(['2026-03-03', '2026-03-04']));
      expect(await walk({ start: '2026-03-05' })).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });
});

describe('paging at any size', () => {
  it('prepares only statements that search an index: no scan, no sort, no OFFSET, a date window included', () => {
    const dir = tempDir();
    dirs.push(dir);
    const db = SandboxDb.open(`${dir}/sandbox.db`);
    try {
      expectFlat(db);
    } finally {
      db.close();
    }
  });
});

/** A sandbox as schema 1 left it: two organisations whose users were created turn about. */
function schemaOneSandbox(dir: string, usersEach: number) {
  const sqlite = new DatabaseSync(`${dir}/sandbox.db`);
  const stamp = '2026-01-05T10:00:00.000Z';
  sqlite.exec(MIGRATIONS[0] as string);
  sqlite.exec('PRAGMA user_version = 1');
  const orgs = [1, 2].map((n) => {
    const apiKey = `lk_test_schema_one_${n}`;
    sqlite.prepare('INSERT INTO organisations (id, name, created_at) VALUES (?, ?, ?)').run(n, `Lender ${n}`, stamp);
    sqlite
      .prepare('INSERT INTO api_keys (org_id, key_hash, created_at) VALUES (?, ?, ?)')
      .run(n, hashApiKey(apiKey), stamp);
    return { org_id: n, api_key: apiKey, product_id: 0, ids: [] as number[] };
  });
  const insertUser = sqlite.prepare(
    `INSERT INTO users (org_id, firstname, lastname, email, phone, gender, password_hash, reference, source,
                        is_active, created_at, updated_at)
     VALUES (?, 'Old', 'User', ?, '+2348012345678', 'female', 'x', ?, 'api', 1, ?, ?)`,
  );
  for (let i = 0; i < usersEach; i++) {
    for (const org of orgs) {
      const ref = `USR-OLD-${org.org_id}-${i}`;
      org.ids.push(
        Number(insertUser.run(org.org_id, `old-${org.org_id}-${i}@example.com`, ref, stamp, stamp).lastInsertRowid),
      );
    }
  }
  sqlite.close();
  return orgs;
}

describe('a sandbox persisted at schema 1', () => {
  it('migrates: the same pages in id order for each organisation, new users continue them, and pages seek', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const orgs = schemaOneSandbox(dir, 60);
    const sandbox = await openSandbox({ dataDir: dir, org: orgs[0] });
    try {
      const ids = async (key: string, pages: number) =>
        ((await call(sandbox.app, 'listUsers', { key, query: { pages } })).json.data as { id: number }[]).map(
          (user) => user.id,
        );
      for (const org of orgs) {
        expect([...(await ids(org.api_key, 1)), ...(await ids(org.api_key, 2))]).toEqual(org.ids);
        // The window of their day has them too, newest first.
        const inWindow = await call(sandbox.app, 'listUsers', { key: org.api_key, query: { start: '2026-01-05' } });
        expect((inWindow.json.data as { id: number }[]).map((user) => user.id)).toEqual(org.ids.slice(-50).reverse());
      }
      // New users of both organisations, turn about again: each goes at the end of its own list.
      for (let i = 0; i < 45; i++) {
        for (const org of orgs) {
          const created = await call(sandbox.app, 'createUser', { key: org.api_key, body: userBody() });
          expect(created.json.status).toBe('success');
        }
      }
      for (const org of orgs) {
        const all = [...(await ids(org.api_key, 1)), ...(await ids(org.api_key, 2)), ...(await ids(org.api_key, 3))];
        expect(all.length).toBe(105);
        expect(all.slice(0, 60)).toEqual(org.ids);
        expect(all).toEqual([...all].sort((a, b) => a - b));
        expect(await ids(org.api_key, 4)).toEqual([]);
      }
    } finally {
      await sandbox.close();
    }
    const db = SandboxDb.open(`${dir}/sandbox.db`);
    try {
      expect(db.version()).toBe(MIGRATIONS.length);
      expectFlat(db);
    } finally {
      db.close();
    }
  });
});

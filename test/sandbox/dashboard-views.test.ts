/**
 * The dashboard shows values as the CLI does and lists as it does: its loan page has the same
 * labels and values as `loan show`; money has two decimals and separators, the zero timestamp is
 * `—`, no field the API never returns; the queue is the loan requests waiting for approval,
 * oldest submission first (as `loan queue`); every list pages by keyset, each query on its index.
 */
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardQueries, type LoanFilters, PAGE_SIZE } from '../../src/sandbox/dashboard/queries.js';
import { SandboxDb } from '../../src/sandbox/db.js';
import { createRepos } from '../../src/sandbox/repos/index.js';
import { approvalFlags, borrower } from '../helpers/cli.js';
import { InjectBrowser } from '../helpers/dashboard.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';

process.env.TZ = 'UTC';

let sandbox: CliSandbox;
let browser: InjectBrowser;
const ids: Record<string, number> = {};

async function ok(argv: string[], stdin?: string) {
  const result = await sandbox.run(argv, stdin === undefined ? {} : { stdin });
  expect(result.exitCode, `${argv.join(' ')}\n${result.stderr}`).toBe(0);
  return result;
}

async function newLoan(name: string, amount: string, day: string, submitted?: string): Promise<void> {
  sandbox.setNow(new Date(`${day}T10:00:00Z`));
  const created = await ok(['loan', 'create', '--user', 'views@example.com', '--amount', amount, '--purpose', name]);
  ids[name] = created.json<{ id: number }>().id;
  if (submitted === undefined) return;
  sandbox.setNow(new Date(`${submitted}T10:00:00Z`));
  await ok(['loan', 'add-bank', String(ids[name]), '--code', '011', '--account-name', 'Ada Obi']);
  await ok(['loan', 'submit', String(ids[name])]);
}

/** The label/value rows of a page's first `<dl>` (the loan request's section). */
function definitionRows(html: string): [string, string][] {
  const first = /<dl>([\s\S]*?)<\/dl>/.exec(html)?.[1] ?? '';
  return [...first.matchAll(/<dt>(.*?)<\/dt><dd>(.*?)<\/dd>/g)].map((match) => [
    match[1] ?? '',
    (match[2] ?? '').replace(/&amp;/g, '&'),
  ]);
}

beforeAll(async () => {
  sandbox = await cliSandbox();
  await ok(['user', 'create', ...borrower('views@example.com'), '--password-stdin'], 'pw');
  await newLoan('early', '120000', '2026-01-05', '2026-03-04');
  await newLoan('late', '75000.5', '2026-02-01', '2026-03-01');
  await newLoan('unsent', '5000', '2026-02-02');
  await newLoan('approved', '50000', '2026-02-03', '2026-02-04');
  const terms = approvalFlags({ '--rate': undefined, '--annual-rate': '24' });
  await ok(['loan', 'approve', String(ids.approved), ...terms, '--yes']);
  browser = new InjectBrowser(sandbox.app);
  expect((await browser.signIn(sandbox.org.api_key)).status).toBe(303);
});

afterAll(async () => {
  await sandbox?.close();
});

describe('the dashboard shows values as the CLI does', () => {
  it("a loan page has loan show's labels and values, row for row", async () => {
    for (const name of ['approved', 'unsent']) {
      const shown = await ok(['loan', 'show', String(ids[name]), '-o', 'table']);
      const cliRows = shown.stdout
        .split('\n')
        .slice(1)
        .filter((line) => line.trim() !== '' && !line.startsWith(' '));
      const sectionEnd = cliRows.findIndex((line) => line.startsWith('Bank details'));
      const expected = cliRows.slice(0, sectionEnd).map((line) => {
        const [label = '', ...value] = line.split(/ {2,}/);
        return [label, value.join('  ').trim()];
      });
      const page = await browser.get(`/dashboard/loans/${ids[name]}`);
      expect(definitionRows(page.body)).toEqual(expected);
    }
  });

  it('money with separators, the rate with its unit, the zero timestamp as —, no frequency', async () => {
    const approved = definitionRows((await browser.get(`/dashboard/loans/${ids.approved}`)).body);
    expect(approved).toContainEqual(['Amount', '50,000.00']);
    expect(approved).toContainEqual(['Approved amount', '45,000.00']);
    expect(approved).toContainEqual(['Rate', '2 % per month']);
    const unsent = (await browser.get(`/dashboard/loans/${ids.unsent}`)).body;
    expect(definitionRows(unsent)).toContainEqual(['Submitted', '—']);
    expect(unsent).not.toContain('0001-01-01');
    expect(unsent).not.toMatch(/frequency/i);
    const list = (await browser.get('/dashboard/loans')).body;
    expect(list).toContain('75,000.50');
    expect(list).toContain('120,000.00');
    const approve = (await browser.get(`/dashboard/loans/${ids.early}/approve`)).body;
    expect(approve).toContain('asks for 120,000.00');
  });

  it("the approval form's yearly rate is sent per tenure unit (÷ 12 a month)", async () => {
    const form = { approved_amount: '1000', annual_rate: '24', tenure: '2', tenured_in: 'months' };
    const preview = await browser.get(
      `/dashboard/loans/${ids.late}/preview?${new URLSearchParams({ ...form, rate_type: 'simple-interest', frequency: 'monthly' })}`,
    );
    // 1,000 at 2 % a month for 2 months: 40.00 interest.
    expect(preview.body).toContain('(interest 40.00)');
  });
});

describe('the queue and the lists', () => {
  it('the queue is the loan requests waiting for approval, oldest submission first, as loan queue lists them', async () => {
    const page = (await browser.get('/dashboard/queue')).body;
    const shown = [...page.matchAll(/<td><a href="\/dashboard\/loans\/(\d+)">/g)].map((match) => Number(match[1]));
    expect(shown).toEqual([ids.late, ids.early]);
    const cli = await ok(['loan', 'queue']);
    expect(cli.json<{ id: number }[]>().map((row) => row.id)).toEqual(shown);
  });

  it("the loan list's stage column and filter are the state table's stages, as loan list --stage reads them", async () => {
    const rows = (html: string) =>
      [
        ...html.matchAll(
          /<td><a href="\/dashboard\/loans\/(\d+)">\d+<\/a><\/td>[\s\S]*?<\/td>\n?<td>.*?<\/td><td>(.*?)<\/td>/g,
        ),
      ].map((match) => [Number(match[1]), match[2]]);
    const all = (await browser.get('/dashboard/loans')).body;
    expect(all).toContain('<option value="waiting">waiting for approval</option>');
    expect(rows(all)).toEqual([
      [ids.approved, 'approved'],
      [ids.unsent, 'created'],
      [ids.late, 'waiting for approval'],
      [ids.early, 'waiting for approval'],
    ]);
    for (const stage of ['created', 'waiting', 'approved']) {
      const page = (await browser.get(`/dashboard/loans?stage=${stage}`)).body;
      const cli = await ok(['loan', 'list', '--stage', stage]);
      expect(rows(page).map(([id]) => id)).toEqual(cli.json<{ id: number }[]>().map((row) => row.id));
    }
  });

  it('pages by keyset: every row once, in order, and the last page says no more', async () => {
    const db = new DatabaseSync(sandbox.dbPath);
    try {
      const queries = new DashboardQueries(db);
      const seen: number[] = [];
      let after: number | undefined;
      let pages = 0;
      do {
        const page = queries.loanPage(sandbox.org_id, {}, after);
        seen.push(...page.rows.map((row) => row.id));
        after = page.next;
        pages++;
      } while (after !== undefined && pages < 10);
      expect(seen).toEqual(Object.values(ids).sort((a, b) => b - a));
      expect(PAGE_SIZE).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });

  it('filters by any set of state fields: every matching row once, newest first, and none for an unknown value', () => {
    const db = new DatabaseSync(sandbox.dbPath);
    try {
      const queries = new DashboardQueries(db);
      const walk = (filters: LoanFilters) => {
        const seen: number[] = [];
        let after: number | undefined;
        do {
          const page = queries.loanPage(sandbox.org_id, filters, after);
          seen.push(...page.rows.map((row) => row.id));
          after = page.next;
        } while (after !== undefined && seen.length < 1000);
        return seen;
      };
      const expected = (filters: LoanFilters) => {
        const given = Object.entries(filters);
        const where = given.map(([field]) => ` AND ${field} = ?`).join('');
        return db
          .prepare(`SELECT id FROM loan_requests WHERE org_id = ? AND deleted_at IS NULL${where} ORDER BY id DESC`)
          .all(sandbox.org_id, ...given.map(([, value]) => value as string))
          .map((row) => Number(row.id));
      };
      let matched = 0;
      for (const status of [undefined, 'saved', 'pending'])
        for (const lender_status of [undefined, 'saved', 'approved'])
          for (const user_status of [undefined, 'saved', 'submitted']) {
            const filters = Object.fromEntries(
              Object.entries({ status, lender_status, user_status }).filter(([, value]) => value !== undefined),
            ) as LoanFilters;
            const rows = walk(filters);
            expect(rows, JSON.stringify(filters)).toEqual(expected(filters));
            matched += rows.length;
          }
      expect(matched).toBeGreaterThan(0);
      expect(walk({ status: 'declined' })).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('searches borrowers by the start of their e-mail, in any case, page after page in e-mail order', () => {
    const db = SandboxDb.open(sandbox.dbPath);
    try {
      const repos = createRepos(db);
      const numbers = Array.from({ length: 2 * PAGE_SIZE + 5 }, (_, i) => (i * 17) % (2 * PAGE_SIZE + 5));
      const create = (email: string) =>
        repos.users.create({
          org_id: sandbox.org_id,
          firstname: 'Page',
          lastname: 'Search',
          email,
          phone: '+2348012345678',
          gender: 'female',
          reference: `USR-SEARCH-${email}`,
          source: 'api',
          now: new Date().toISOString(),
        });
      db.transaction(() => {
        for (const n of numbers) create(`Searched-${String(n).padStart(2, '0')}@paging.example`);
        create('not-searched-01@paging.example'); // holds the text, does not start with it
      });
      const queries = new DashboardQueries(db.sqlite);
      const seen: string[] = [];
      let after: number | undefined;
      let pages = 0;
      do {
        const page = queries.borrowerPage(sandbox.org_id, 'SEARCHED-', after);
        seen.push(...page.rows.map((row) => row.email));
        after = page.next;
        pages++;
      } while (after !== undefined && pages < 10);
      expect(pages).toBe(3);
      expect(seen).toEqual(numbers.map((n) => `Searched-${String(n).padStart(2, '0')}@paging.example`).sort());
    } finally {
      db.close();
    }
  });

  it('each list reads through an index that matches its order: no sort of the whole organisation', () => {
    const db = new DatabaseSync(sandbox.dbPath);
    try {
      /** The query plan of every statement `run` prepares. */
      const plansOf = (run: () => unknown): string[] => {
        const plans: string[] = [];
        const original = db.prepare.bind(db);
        db.prepare = ((sql: string) => {
          const rows = original(`EXPLAIN QUERY PLAN ${sql}`).all({}) as { detail: string }[];
          plans.push(rows.map((row) => row.detail).join('; '));
          return original(sql);
        }) as typeof db.prepare;
        try {
          run();
        } finally {
          db.prepare = original;
        }
        return plans;
      };
      let queries!: DashboardQueries;
      const [borrowers, byEmail, byEmailAfter, queue, byPhone] = plansOf(() => {
        queries = new DashboardQueries(db);
      });
      expect(borrowers).toMatch(/SEARCH users USING INDEX users_org \(org_id=\? AND rowid<\?\)/);
      // The search by an e-mail's start is a range of the unique e-mail index, read in its order.
      for (const plan of [byEmail, byEmailAfter]) {
        expect(plan).toMatch(/SEARCH users USING INDEX users_org_email \(org_id=\? AND <expr>>=?\? AND <expr><\?\)/);
      }
      // The search by phone is a seek of (organisation, phone), newest first by the id the index ends with.
      expect(byPhone).toMatch(/SEARCH users USING INDEX users_org_phone \(org_id=\? AND phone=\? AND rowid<\?\)/);
      for (const plan of [borrowers, byEmail, byEmailAfter, byPhone]) expect(plan).not.toContain('TEMP B-TREE');
      expect(queue).toMatch(/SEARCH lr USING INDEX loan_requests_queue \(org_id=\? AND submitted_at>\?\)/);
      expect(queue).not.toContain('TEMP B-TREE');
      // Any set of filters, however few rows match it: seeks on an index, one per combination of
      // state values that agrees with the filters, merged in id order; only the page is sorted.
      const filters: [LoanFilters, string, number][] = [
        [{}, 'loan_requests_org \\(org_id=\\? AND rowid<\\?\\)', 1],
        [
          { status: 'pending' },
          'loan_requests_org_states \\(org_id=\\? AND status=\\? AND lender_status=\\? AND user_status=\\? AND rowid<\\?\\)',
          4,
        ],
        [{ status: 'pending', lender_status: 'approved' }, 'loan_requests_org_states', 2],
        [{ lender_status: 'approved', user_status: 'saved' }, 'loan_requests_org_states', 2],
        [{ status: 'saved', lender_status: 'approved', user_status: 'submitted' }, 'loan_requests_org_states', 1],
      ];
      for (const [filter, index, seeks] of filters) {
        const [plan = ''] = plansOf(() => queries.loanPage(sandbox.org_id, filter, undefined));
        const steps = plan.split('; ');
        const reads = steps.filter((step) => /^(SEARCH|SCAN) loan_requests /.test(step));
        expect(reads, JSON.stringify(filter)).toHaveLength(seeks);
        for (const read of reads) expect(read).toMatch(new RegExp(`^SEARCH loan_requests USING INDEX ${index}`));
        expect(steps.filter((step) => /^SCAN /.test(step))).toEqual(['SCAN page']);
      }
    } finally {
      db.close();
    }
  });
});

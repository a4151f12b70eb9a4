/**
 * The loan lists' borrower columns and the `@export` preset (docs/guide.md, "Spreadsheets"): each
 * loan request carries its borrower's e-mail and phone in csv, xlsx, json, ndjson and a table,
 * answered from the local index of borrowers brought up to date once a run (a borrower created
 * since is found by walking only the new ones); a borrower the user list does not show is left
 * empty with one warning; a list without borrower columns reads no user. Requests are counted in
 * the `--debug` lines, against a real sandbox.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSheet } from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOAN_REQUEST_PRESETS } from '../../src/output/presets.js';
import { dbPathFor, SandboxDb } from '../../src/sandbox/db.js';
import { createRepos } from '../../src/sandbox/repos/index.js';
import { borrower } from '../helpers/cli.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';
import { call, sampleBody } from '../helpers/sandbox.js';

/** Two pages of the sandbox's user list (50 a page), and some. */
const BORROWERS = 60;
const EXPORT: readonly string[] = LOAN_REQUEST_PRESETS.export;

let sandbox: CliSandbox;
/** Each loan request made here, with its borrower's id. */
const loans = new Map<number, number>();

const emailOf = (id: number) => `borrower-${id}@export.example`;
const phoneOf = (id: number) => `+23480300${String(id).padStart(5, '0')}`;
/** The user list's requests among a run's `--debug` lines: `GET /api/v1/user?pages=2`. */
const userRequests = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => /^debug: > GET \S*\/api\/v1\/user\b/.test(line))
    .map((line) => /pages=(\d+)/.exec(line)?.[1]);

/** Borrowers `from`…`to` written straight into the sandbox's database (ids follow in that order). */
function seedBorrowers(from: number, to: number): void {
  const db = SandboxDb.open(dbPathFor(sandbox.dataDir));
  try {
    const repos = createRepos(db);
    const now = new Date().toISOString();
    db.transaction(() => {
      for (let id = from; id <= to; id++) {
        const user = { org_id: sandbox.org_id, firstname: 'Borrower', lastname: `Number ${id}`, gender: 'female' };
        repos.users.create({
          ...user,
          email: emailOf(id),
          phone: phoneOf(id),
          reference: `USR-${id}`,
          source: 'api',
          now,
        });
      }
    });
  } finally {
    db.close();
  }
}

/** A loan request of borrower `userId`, through the API. */
async function loanOf(userId: number): Promise<number> {
  const created = await call(sandbox.app, 'createLoanRequest', {
    key: sandbox.api_key,
    params: { user_id: userId },
    productId: sandbox.product_id,
    body: { amount: 1000 * userId, purpose: 'Stock' },
  });
  const id = (created.json.data as { id: number }).id;
  loans.set(id, userId);
  return id;
}

/** A config dir of its own: its own index of borrowers. */
const freshConfig = () => ({ LOANCTL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'loanctl-export-')) });

beforeAll(async () => {
  sandbox = await cliSandbox();
  seedBorrowers(1, BORROWERS);
  // The oldest borrower (page 1 of the user list), one on page 2, and the newest.
  for (const userId of [1, 3, 55, BORROWERS]) await loanOf(userId);
  // One waiting for approval, for `loan queue`.
  const waiting = [...loans.keys()][0] as number;
  const common = { key: sandbox.api_key, params: { id: waiting }, productId: sandbox.product_id };
  await call(sandbox.app, 'addBankDetails', { ...common, body: sampleBody('addBankDetails', sandbox.org_id) });
  expect((await call(sandbox.app, 'submitLoanRequest', common)).json.status).toBe('success');
});
afterAll(() => sandbox?.close());

describe('--fields @export', () => {
  it('csv, then json after a borrower was created: each row its borrower, the new one found by walking only the new', async () => {
    const env = freshConfig();
    const first = await sandbox.run(['loan', 'list', '--all', '--fields', '@export', '-o', 'csv', '--debug'], { env });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stderr).toContain('Reading the whole user list into the local index of borrowers');
    expect(userRequests(first.stderr)).toContain('2');
    const [header, ...rows] = first.stdout.trim().split('\n');
    expect(header).toBe(EXPORT.join(','));
    expect(rows).toHaveLength(loans.size);
    const at = (name: string) => EXPORT.indexOf(name);
    for (const row of rows) {
      const cells = row.split(',');
      const userId = loans.get(Number(cells[at('id')])) as number;
      expect(cells[at('borrower_email')]).toBe(emailOf(userId));
      expect(cells[at('borrower_phone')]).toBe(phoneOf(userId));
      expect(cells[at('fullname')]).toBe(`Borrower Number ${userId}`);
    }

    const created = await sandbox.run(
      ['user', 'create', ...borrower('late@export.example', '08099990001'), '--password-stdin', '-o', 'json'],
      { stdin: 'pw-12345678', env },
    );
    expect(created.exitCode, created.stderr).toBe(0);
    const late = (await sandbox.run(['user', 'show', 'late@export.example', '-o', 'json'], { env })).json<{
      id: number;
    }>().id;
    const lateLoan = await loanOf(late);

    const second = await sandbox.run(['loan', 'list', '--all', '--fields', '@export', '-o', 'json', '--debug'], {
      env,
    });
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).not.toContain('Reading the whole user list');
    // Only the last page walked (2), and the one after it: not page 1 again.
    expect(userRequests(second.stderr)).not.toContain('1');
    const listed = second.json<Record<string, unknown>[]>();
    expect(Object.keys(listed[0] ?? {})).toEqual(EXPORT.map((name) => name.split('.')[0]).filter(unique));
    const row = listed.find((loan) => loan.id === lateLoan);
    expect(row).toMatchObject({ borrower_email: 'late@export.example', borrower_phone: '+2348099990001' });
    expect(listed.find((loan) => loans.get(loan.id as number) === 55)).toMatchObject({
      borrower_email: emailOf(55),
      borrower_phone: phoneOf(55),
    });
  });

  it('xlsx, with names after the preset: the phone a text cell, money a number, an unset date empty', async () => {
    const result = await sandbox.run(['loan', 'list', '--all', '--fields', '@export,purpose,id', '-o', 'xlsx'], {
      env: freshConfig(),
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const [header, ...rows] = await readSheet(result.stdoutBytes);
    expect(header).toEqual([...EXPORT, 'purpose']);
    const at = (name: string) => EXPORT.indexOf(name);
    const oldest = rows.find((cells) => loans.get(cells[at('id')] as number) === 1) as unknown[];
    expect(oldest[at('borrower_email')]).toBe(emailOf(1));
    expect(oldest[at('borrower_phone')]).toBe(phoneOf(1));
    expect(oldest[at('amount')]).toBe(1000);
    expect(oldest[at('approved_at')]).toBeNull();
  });

  it('the filtered list, ndjson, a table and loan queue carry them too', async () => {
    const env = freshConfig();
    const filtered = await sandbox.run(
      ['loan', 'list', '--user', emailOf(3), '--fields', 'id,borrower_email,borrower_phone', '-o', 'ndjson'],
      { env },
    );
    expect(filtered.exitCode, filtered.stderr).toBe(0);
    expect(filtered.json()).toMatchObject({ borrower_email: emailOf(3), borrower_phone: phoneOf(3) });

    const table = await sandbox.run(['loan', 'list', '--fields', 'id,borrower_email', '-o', 'table'], { env });
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).toContain('BORROWER EMAIL');
    expect(table.stdout).toContain(emailOf(55));

    const queue = await sandbox.run(
      ['loan', 'queue', '--fields', 'id,user_id,borrower,borrower_email,borrower_phone', '-o', 'csv'],
      { env },
    );
    expect(queue.exitCode, queue.stderr).toBe(0);
    const [waiting] = [...loans.keys()];
    expect(queue.stdout).toBe(
      `id,user_id,borrower,borrower_email,borrower_phone\n${waiting},1,Borrower Number 1,${emailOf(1)},${phoneOf(1)}\n`,
    );
  });
});

describe('the guide on @export', () => {
  it('names the fields the preset stands for, in its order', () => {
    const guide = readFileSync(join(import.meta.dirname, '../../docs/guide.md'), 'utf8');
    const said = /`@export` stands for (.+?)\.\s/s.exec(guide)?.[1];
    expect(said?.match(/`[^`]+`/g)?.map((name) => name.slice(1, -1))).toEqual([...LOAN_REQUEST_PRESETS.export]);
  });
});

describe('what the borrower columns cost and refuse', () => {
  it('a list without them reads no user and writes no index', async () => {
    const env = freshConfig();
    for (const fields of [[], ['--fields', 'id,reference,fullname']]) {
      const result = await sandbox.run(['loan', 'list', '--all', ...fields, '-o', 'csv', '--debug'], { env });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stderr).toContain('debug: > GET');
      expect(userRequests(result.stderr)).toEqual([]);
    }
    expect(readdirSync(env.LOANCTL_CONFIG_DIR).includes('cache')).toBe(false);
  });

  it('an unknown preset is exit 2, one line naming the presets, nothing sent', async () => {
    const result = await sandbox.run(['loan', 'list', '--fields', 'id,@exprt', '--debug']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe('loanctl: --fields: unknown preset "@exprt"; nothing was sent. Presets: @export.\n');
    const none = await sandbox.run(['user', 'list', '--fields', '@export']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('"@export" names a preset, and this command has none');
  });

  it('a borrower the user list does not show: empty cells and one warning that counts them', async () => {
    const stranger = await strangerLoan();
    const result = await sandbox.run(['loan', 'list', '--all', '--fields', 'id,borrower_email,borrower_phone'], {
      env: freshConfig(),
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const rows = result.json<{ id: number; borrower_email: unknown; borrower_phone: unknown }[]>();
    expect(rows.find((row) => row.id === stranger)).toEqual({
      id: stranger,
      borrower_email: null,
      borrower_phone: null,
    });
    expect(rows.filter((row) => row.borrower_email === null)).toHaveLength(1);
    const warnings = result.stderr.split('\n').filter((line) => line.startsWith('warning:'));
    expect(warnings).toEqual([
      expect.stringMatching(/^warning: 1 loan request's borrower is not in the user list \(user id \d+\)/),
    ]);
  });

  it('a walk that fails after writing a row whose borrower is missing still warns of it, before the error', async () => {
    // More than one page of a filtered walk (100 a request), then the newest: the walk's first row.
    for (let more = 0; more < 100; more++) await loanOf(1);
    const stranger = await strangerLoan();
    const faults = (...args: string[]) => sandbox.run(['sandbox', 'faults', ...args, '--data-dir', sandbox.dataDir]);
    const list = ['--path', '/api/v1/loan_request', '--method', 'GET'];
    const fields = ['--fields', 'id,borrower_email', '-o', 'ndjson'];
    for (const walk of [
      ['loan', 'list', '--all', '--limit', '1', ...fields],
      ['loan', 'list', '--all', '--min-amount', '1', ...fields],
    ]) {
      // The first page of loan requests is only delayed; every page after it fails.
      expect((await faults('add', ...list, '--latency', '1ms', '--times', '1')).exitCode).toBe(0);
      expect((await faults('add', ...list, '--status', '400', '--envelope', 'error')).exitCode).toBe(0);
      try {
        const result = await sandbox.run(walk, { env: freshConfig() });
        expect(result.exitCode, result.stderr).toBe(1);
        expect(JSON.parse(result.stdout.split('\n')[0] ?? '')).toEqual({ id: stranger, borrower_email: null });
        const lines = result.stderr.trim().split('\n');
        const warning = lines.findIndex((line) =>
          /^warning: 1 loan request's borrower is not in the user list/.test(line),
        );
        expect(warning, `${walk.join(' ')}: ${result.stderr}`).toBeGreaterThanOrEqual(0);
        expect(lines.slice(warning + 1).some((line) => line.startsWith('loanctl: '))).toBe(true);
      } finally {
        expect((await faults('clear')).exitCode).toBe(0);
      }
    }
  });

  it('a list that is not the one indexed (another sandbox restored behind the URL) is read again, never shown stale', async () => {
    const env = freshConfig();
    const before = await sandbox.run(['loan', 'list', '--fields', 'id,borrower_email', '-o', 'ndjson'], { env });
    expect(before.exitCode, before.stderr).toBe(0);
    // The same ids and page sizes with other e-mails, as a snapshot of another sandbox would bring.
    renameBorrowers(true);
    try {
      const after = await sandbox.run(['loan', 'list', '--all', '--fields', 'id,borrower_email', '-o', 'ndjson'], {
        env,
      });
      expect(after.exitCode, after.stderr).toBe(0);
      const emails = after.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).borrower_email);
      expect(emails.filter((email) => email !== null).every((email) => email.startsWith('restored-'))).toBe(true);
    } finally {
      renameBorrowers(false);
    }
  });
});

function unique(value: string | undefined, at: number, all: (string | undefined)[]): boolean {
  return all.indexOf(value) === at;
}

/**
 * A loan request whose borrower the user list does not show: another organisation's borrower,
 * written into the database (no API call makes one).
 */
async function strangerLoan(): Promise<number> {
  const other = sandbox.addOrg('Other Lender');
  const made = await call(sandbox.app, 'createUser', {
    key: other.api_key,
    body: {
      firstname: 'Not',
      lastname: 'Listed',
      email: 'stranger@export.example',
      password: 'pw-12345678',
      phone: '+2348012345678',
      gender: 'male',
    },
  });
  expect(made.json.status).toBe('success');
  const loanId = await loanOf(1);
  const db = SandboxDb.open(dbPathFor(sandbox.dataDir));
  try {
    db.sqlite
      .prepare('UPDATE loan_requests SET user_id = (SELECT id FROM users WHERE email = ?) WHERE id = ?')
      .run('stranger@export.example', loanId);
  } finally {
    db.close();
  }
  return loanId;
}

/** Every borrower of the organisation with `restored-` in front of the e-mail, or (`false`) without it again. */
function renameBorrowers(restored: boolean): void {
  const db = SandboxDb.open(dbPathFor(sandbox.dataDir));
  const email = restored ? "'restored-' || email" : "substr(email, length('restored-') + 1)";
  try {
    db.sqlite.prepare(`UPDATE users SET email = ${email} WHERE org_id = ?`).run(sandbox.org_id);
  } finally {
    db.close();
  }
}

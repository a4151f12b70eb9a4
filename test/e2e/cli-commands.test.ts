/**
 * Every `user` and `loan` command at least once, through `runCli` (the real program, in-process)
 * against the in-process sandbox, with the parts the
 * flow does not reach: paging (`--all`, `next:` hints), `--data` (inline, @file, stdin) with flags
 * overriding it, the idempotent `user create`, add-business's org id default, update, delete,
 * progress, tokenize, upload-document, and every command's help.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoanRequest } from '../../src/contract/schemas.js';
import { borrower } from '../helpers/cli.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';
import { call } from '../helpers/sandbox.js';

let sandbox: CliSandbox;
let userId: number;
const email = 'commands@example.com';

async function newLoan(amount = '1000', purpose = 'Stock'): Promise<number> {
  const result = await sandbox.run([
    'loan',
    'create',
    '--user',
    String(userId),
    '--amount',
    amount,
    '--purpose',
    purpose,
  ]);
  expect(result.exitCode, result.stderr).toBe(0);
  return result.json<LoanRequest>().id;
}

beforeAll(async () => {
  sandbox = await cliSandbox();
  const created = await sandbox.run(['user', 'create', ...borrower(email), '--password-stdin'], { stdin: 'pw' });
  expect(created.exitCode, created.stderr).toBe(0);
  const list = await sandbox.run(['user', 'list']);
  userId = list.json<{ id: number; email: string }[]>().find((user) => user.email === email)?.id as number;
  expect(userId).toBeGreaterThan(0);
});

afterAll(async () => {
  await sandbox?.close();
});

describe('user', () => {
  it('user create is idempotent: an existing e-mail is exit 0 with status "exists"', async () => {
    const again = await sandbox.run(['user', 'create', ...borrower(email), '--password-stdin'], { stdin: 'pw' });
    expect(again.exitCode).toBe(0);
    expect(again.json()).toMatchObject({ email, status: 'exists' });
    expect(again.stderr).toContain(`A user with e-mail ${email} already exists; nothing was created`);
    const raw = await sandbox.run(['user', 'create', ...borrower(email), '--password-stdin', '--raw'], {
      stdin: 'pw',
    });
    expect(raw.json()).toMatchObject({ status: 'exists' });
  });

  it('user create takes --data (inline and @file) with flags overriding it, and the password from it', async () => {
    const inline = await sandbox.run([
      'user',
      'create',
      '--data',
      JSON.stringify({
        firstname: 'X',
        lastname: 'Y',
        email: 'data@example.com',
        phone: '08011111111',
        gender: 'male',
        password: 'pw',
      }),
      '--firstname',
      'Zed',
    ]);
    expect(inline.exitCode, inline.stderr).toBe(0);
    expect(inline.json()).toMatchObject({
      firstname: 'Zed',
      lastname: 'Y',
      phone: '+2348011111111',
      status: 'created',
    });

    const dir = mkdtempSync(join(tmpdir(), 'loanctl-data-'));
    const file = join(dir, 'user.json');
    writeFileSync(
      file,
      JSON.stringify({ firstname: 'F', lastname: 'L', email: 'file@example.com', phone: '2348022222222', gender: 'f' }),
    );
    const fromFile = await sandbox.run(['user', 'create', '--data', `@${file}`, '--password-stdin'], {
      stdin: 'pw\n',
    });
    expect(fromFile.exitCode, fromFile.stderr).toBe(0);
    expect(fromFile.json()).toMatchObject({ email: 'file@example.com', phone: '+2348022222222' });
  });

  it('user exists prints false (exit 0) for an unknown e-mail, in JSON and in a table', async () => {
    const json = await sandbox.run(['user', 'exists', '--email', 'nobody@example.com']);
    expect([json.exitCode, json.stdout]).toEqual([0, 'false\n']);
    const table = await sandbox.run(['user', 'exists', '--email', email, '-o', 'table']);
    expect([table.exitCode, table.stdout]).toEqual([0, 'true\n']);
  });

  it('user list pages, filters by date, walks every page with --all, and says how to get the next page', async () => {
    // The sandbox's pages hold 50 users: make sure there are more than that. Set up through the
    // sandbox directly (the contract's createUser over app.inject); what is tested is the CLI.
    for (let n = 0; n < 51; n++) {
      const reply = await call(sandbox.app, 'createUser', {
        key: sandbox.api_key,
        body: {
          firstname: 'P',
          lastname: `N${n}`,
          email: `page${n}@example.com`,
          phone: '+2348033333333',
          gender: 'f',
          password: 'pw',
        },
      });
      expect(reply.json.status).toBe('success');
    }
    const first = await sandbox.run(['user', 'list']);
    expect(first.exitCode).toBe(0);
    expect(first.json<unknown[]>()).toHaveLength(50);
    expect(first.stderr).toContain('next: --page 2');

    const second = await sandbox.run(['user', 'list', '--page', '2']);
    const secondRows = second.json<unknown[]>();
    expect(secondRows.length).toBeGreaterThan(0);
    expect(second.stderr).not.toContain('next:');

    const all = await sandbox.run(['user', 'list', '--all', '-o', 'ndjson', '--fields', 'id,email']);
    const lines = all.stdout.trim().split('\n');
    expect(lines).toHaveLength(50 + secondRows.length);
    expect(JSON.parse(lines[0] as string)).toEqual({ id: expect.any(Number), email: expect.any(String) });

    const today = new Date().toISOString().slice(0, 10);
    const filtered = await sandbox.run([
      'user',
      'list',
      '--start',
      '2000-01-01',
      '--end',
      today,
      '-o',
      'csv',
      '--fields',
      'id,email',
    ]);
    expect(filtered.exitCode, filtered.stderr).toBe(0);
    expect(filtered.stdout.split('\n')[0]).toBe('id,email');
    const none = await sandbox.run(['user', 'list', '--start', '2000-01-01', '--end', '2000-01-02', '-o', 'table']);
    expect([none.exitCode, none.stdout]).toEqual([0, '']);
    expect(none.stderr).toContain('No users found.');
  });
});

describe('loan', () => {
  it('loan list: DESC by default, next: --cursor hint, ASC, and --all streaming every page', async () => {
    const ids = [await newLoan(), await newLoan(), await newLoan()];
    const page = await sandbox.run(['loan', 'list', '--limit', '2', '--fields', 'id']);
    expect(page.exitCode, page.stderr).toBe(0);
    const rows = page.json<{ id: number }[]>();
    expect(rows.map((row) => row.id)).toEqual([ids[2], ids[1]]);
    expect(page.stderr).toContain(`next: --cursor ${ids[1]} --limit 2`);

    const next = await sandbox.run(['loan', 'list', '--limit', '2', '--cursor', String(ids[1]), '--fields', 'id']);
    expect(next.json<{ id: number }[]>()[0]?.id).toBe(ids[0]);

    const asc = await sandbox.run(['loan', 'list', '--direction', 'asc', '--limit', '100', '--fields', 'id']);
    const ascIds = asc.json<{ id: number }[]>().map((row) => row.id);
    expect(ascIds).toEqual([...ascIds].sort((a, b) => a - b));
    expect(asc.stderr).not.toContain('next:');

    const all = await sandbox.run(['loan', 'list', '--all', '--limit', '1', '--fields', 'id']);
    expect(all.exitCode, all.stderr).toBe(0);
    const allIds = all.json<{ id: number }[]>().map((row) => row.id);
    expect(allIds).toEqual(expect.arrayContaining(ids));
    expect(allIds).toEqual([...allIds].sort((a, b) => b - a));
  });

  it('loan list --raw keeps the next-page hint, and --raw --all prints each page envelope as one line', async () => {
    const ids = [await newLoan(), await newLoan()];
    const page = await sandbox.run(['loan', 'list', '--limit', '1', '--raw']);
    expect(page.json()).toMatchObject({ status: 'success', data: { cursor: ids[1] } });
    expect(page.stderr).toContain(`next: --cursor ${ids[1]} --limit 1`);

    const all = await sandbox.run(['loan', 'list', '--all', '--limit', '1', '--raw']);
    expect(all.exitCode, all.stderr).toBe(0);
    const envelopes = all.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(envelopes.length).toBeGreaterThanOrEqual(2);
    for (const envelope of envelopes) {
      expect(envelope).toMatchObject({ status: 'success', message: expect.any(String) });
      expect(envelope.data.loan_requests).toHaveLength(1);
      expect(envelope.data.cursor).toBe(envelope.data.loan_requests[0].id);
    }
    expect(envelopes.slice(0, 2).map((envelope) => envelope.data.cursor)).toEqual([ids[1], ids[0]]);
  });

  it('loan update changes the purpose (flag, or --data from stdin)', async () => {
    const id = String(await newLoan());
    const updated = await sandbox.run(['loan', 'update', id, '--purpose', 'A freezer']);
    expect(updated.exitCode, updated.stderr).toBe(0);
    expect(updated.json()).toMatchObject({ id: Number(id), purpose: 'A freezer' });
    const viaStdin = await sandbox.run(['loan', 'update', id, '--data', '-'], { stdin: '{"purpose":"Two freezers"}' });
    expect(viaStdin.json()).toMatchObject({ purpose: 'Two freezers' });
  });

  it('loan delete --yes deletes; the loan request is then not found (exit 4)', async () => {
    const id = String(await newLoan());
    const deleted = await sandbox.run(['loan', 'delete', id, '--yes']);
    expect(deleted.exitCode, deleted.stderr).toBe(0);
    expect(deleted.stderr).toContain(`Deleted loan request ${id}.`);
    expect((await sandbox.run(['loan', 'show', id])).exitCode).toBe(4);
  });

  it('loan progress, tokenize, upload-document, add-business, guarantors and employment', async () => {
    const id = String(await newLoan('20000', 'Business'));
    const progress = await sandbox.run(['loan', 'progress', id, '-o', 'table']);
    expect(progress.exitCode, progress.stderr).toBe(0);

    await sandbox.run(['loan', 'add-bank', id, '--code', '011', '--account-name', 'Ada Obi']);
    const tokenized = await sandbox.run(['loan', 'tokenize', id]);
    expect(tokenized.exitCode, tokenized.stderr).toBe(0);
    expect(tokenized.json()).toMatchObject({ id: Number(id), linker_tokenized: true });

    const document = await sandbox.run([
      'loan',
      'upload-document',
      id,
      '--type',
      'passport',
      '--title',
      'International passport',
      '--number',
      'A01234567',
      '--url',
      'https://files.example.com/ada.jpg',
    ]);
    expect(document.exitCode, document.stderr).toBe(0);
    expect(document.json<unknown[]>()[0]).toMatchObject({
      type: 'passport',
      document_url: 'https://files.example.com/ada.jpg',
    });

    const business = await sandbox.run([
      'loan',
      'add-business',
      id,
      '--data',
      JSON.stringify({ name: 'From data', industry: 'retail', average_monthly_income: 90000 }),
      '--name',
      'Ada Stores',
      '--role',
      'owner',
      '--description',
      'Grocery shop',
      '--registered',
      '--registration-number',
      'RC123456',
      '--established-on',
      '2019-03-01',
      '--number-of-employees',
      '4',
      '--monthly-salary-cost',
      '120,000',
    ]);
    expect(business.exitCode, business.stderr).toBe(0);
    expect(business.json()).toMatchObject({
      name: 'Ada Stores',
      industry: 'retail',
      registered: true,
      established_on: '2019-03-01',
      number_of_employees: 4,
      monthly_salary_cost: 120000,
      average_monthly_income: 90000,
      org_id: sandbox.org_id,
    });
    expect(business.stderr).toMatch(new RegExp(`Using org id ${sandbox.org_id}`));

    const noGuarantors = await sandbox.run(['loan', 'guarantors', id, '-o', 'table']);
    expect([noGuarantors.exitCode, noGuarantors.stdout]).toEqual([0, '']);
    expect(noGuarantors.stderr).toContain('No guarantors found.');
    expect((await sandbox.run(['loan', 'guarantors', id])).json()).toEqual([]);

    const noEmployment = await sandbox.run(['loan', 'employment', id]);
    expect([noEmployment.exitCode, noEmployment.stdout.trim()]).toEqual([0, 'null']);
    const noEmploymentTable = await sandbox.run(['loan', 'employment', id, '-o', 'table']);
    expect(noEmploymentTable.stderr).toContain('No employment information yet.');
  });

  it('--product overrides LOANCTL_PRODUCT_ID, and a profile can give the product instead', async () => {
    const explicit = await sandbox.run(['loan', 'list', '--product', String(sandbox.product_id), '--limit', '1'], {
      env: { LOANCTL_PRODUCT_ID: undefined },
    });
    expect(explicit.exitCode, explicit.stderr).toBe(0);

    const added = await sandbox.run(
      [
        'profile',
        'add',
        'e2e',
        '--base-url',
        sandbox.url,
        '--product-id',
        String(sandbox.product_id),
        '--api-key-stdin',
        // In-process: the OS keyring's native module reads this process's D-Bus session, which no
        // env passed to runCli can hide; the keyring has its own spawned tests (keyring.test.ts).
        '--insecure-storage',
      ],
      {
        stdin: sandbox.api_key,
        env: { LOANCTL_BASE_URL: undefined, LOANCTL_API_KEY: undefined, LOANCTL_PRODUCT_ID: undefined },
      },
    );
    expect(added.exitCode, added.stderr).toBe(0);
    const viaProfile = await sandbox.run(['loan', 'list', '--limit', '1', '--profile', 'e2e'], {
      env: { LOANCTL_BASE_URL: undefined, LOANCTL_API_KEY: undefined, LOANCTL_PRODUCT_ID: undefined },
    });
    expect(viaProfile.exitCode, viaProfile.stderr).toBe(0);
    expect(viaProfile.json<unknown[]>()).toHaveLength(1);
  });
});

describe('help', () => {
  const verbs = [
    ['user', 'create'],
    ['user', 'exists'],
    ['user', 'list'],
    ...[
      'create',
      'list',
      'show',
      'update',
      'delete',
      'progress',
      'tokenize',
      'upload-document',
      'add-business',
      'add-bank',
      'banks',
      'add-guarantor',
      'guarantors',
      'add-employment',
      'employment',
      'submit',
      'approve',
    ].map((verb) => ['loan', verb]),
  ];

  it.each(verbs)('%s %s --help has a description and an example', async (noun, verb) => {
    const help = await sandbox.run([noun as string, verb as string, '--help']);
    expect(help.exitCode).toBe(0);
    const lines = help.stdout.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^Usage: loanctl ${noun} ${verb}`));
    expect(lines[2]?.trim().length).toBeGreaterThan(10);
    expect(help.stdout).toMatch(new RegExp(`Examples:\\n\\s+\\$ loanctl ${noun} ${verb}`));
    if (noun === 'loan') expect(help.stdout).toContain('--product <id>');
  });

  it('loan --help walks through the whole flow', async () => {
    const help = await sandbox.run(['loan', '--help']);
    for (const step of [
      'user create',
      'loan create',
      'add-bank',
      'add-employment',
      'add-guarantor',
      'submit',
      'approve',
      'show',
    ]) {
      expect(help.stdout).toContain(step);
    }
  });
});

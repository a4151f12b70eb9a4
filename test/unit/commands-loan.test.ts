/**
 * The loan and user verbs through the real program (runCli) against a real in-process sandbox,
 * requests seen at the HTTP boundary by ../helpers/sandbox-front.ts: prompts on a terminal
 * (confirm, decline → 130, password), that `loan show` sends its five requests at once, paging,
 * and looking up a borrower or an org id. The front answers in the sandbox's place only where a
 * real server would not: a user list whose pages repeat.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EndpointKey } from '../../src/contract/endpoints.js';
import type { Prompter } from '../../src/prompts/prompter.js';
import { USERS_PAGE_SIZE } from '../../src/sandbox/handlers/users.js';
import { type CliSandbox, cliSandbox, type RunCliOptions } from '../helpers/run-cli.js';
import { call, findUserId, sampleBody, userBody } from '../helpers/sandbox.js';
import { type SandboxFront, sandboxFront } from '../helpers/sandbox-front.js';

let sandbox: CliSandbox;
let front: SandboxFront;

beforeEach(async () => {
  sandbox = await cliSandbox();
  front = await sandboxFront(sandbox.url);
});
afterEach(async () => {
  await front.close();
  await sandbox.close();
});

/** `loanctl -o json ARGS` through the front; `answers` are the prompts' (a terminal then). */
function run(args: string[], options: RunCliOptions & { answers?: Partial<Prompter> } = {}) {
  const { answers, ...rest } = options;
  return sandbox.run(['-o', 'json', ...args], {
    ...(answers && { tty: true, prompter: answers }),
    ...rest,
    env: { LOANCTL_BASE_URL: front.url, ...rest.env },
  });
}

const keys = () => front.sent().map((sent) => sent.key);
const product = () => String(sandbox.product_id);

async function seedBorrower(email = 'ada@example.com'): Promise<number> {
  const created = await call(sandbox.app, 'createUser', { key: sandbox.api_key, body: userBody({ email }) });
  if (created.json.status !== 'success') throw new Error(created.raw);
  return findUserId(sandbox.app, sandbox.org, email);
}

/** An operation on loan request `id` (or a new one for user `id`), in the sandbox: its reply's data. */
async function seed(key: EndpointKey, id: number, body: unknown = sampleBody(key, sandbox.org_id)) {
  const params: Record<string, number> = key === 'createLoanRequest' ? { user_id: id } : { id };
  const reply = await call(sandbox.app, key, { key: sandbox.api_key, productId: sandbox.product_id, params, body });
  if (reply.json.status !== 'success') throw new Error(`${key}: ${reply.raw}`);
  return reply.json.data as { id: number };
}

/** `count` loan requests of one borrower: their ids, oldest first. */
async function seedLoans(count: number): Promise<number[]> {
  const userId = await seedBorrower();
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push((await seed('createLoanRequest', userId)).id);
  return ids;
}

/** A loan request with bank details, submitted: ready to approve. */
async function submittedLoan(): Promise<number> {
  const [id] = await seedLoans(1);
  if (id === undefined) throw new Error('no loan request');
  await seed('addBankDetails', id);
  await seed('submitLoanRequest', id, undefined);
  return id;
}

const terms = (id: number) => [
  'loan',
  'approve',
  String(id),
  '--approved-amount',
  '45000',
  '--rate',
  '5',
  '--tenure',
  '6',
  '--tenured-in',
  'months',
  '--rate-type',
  'simple-interest',
  '--frequency',
  'weekly',
];

describe('confirmation (loan approve, loan delete)', () => {
  it('asks on a terminal and sends when the operator agrees; weekly goes out as weekely', async () => {
    const id = await submittedLoan();
    const questions: string[] = [];
    const { exitCode } = await run(terms(id), {
      answers: {
        confirm: async (question) => {
          questions.push(question);
          return true;
        },
      },
    });
    expect(exitCode).toBe(0);
    expect(questions).toEqual([
      `Approve loan request ${id}: 45,000.00 at 5 % per month (simple interest) over 6 months, repaid weekly?`,
    ]);
    // approve reads the loan request first, to review it, then sends the approval.
    expect(keys()).toEqual(['listLoanRequests', 'approveLoanRequest']);
    expect(front.sent()[1]).toMatchObject({
      key: 'approveLoanRequest',
      params: { id: String(id) },
      query: { 'product-id': product(), action: 'approve' },
      body: {
        approved_amount: 45000,
        rate: 5,
        tenure: 6,
        tenured_in: 'months',
        rate_type: 'simple-interest',
        frequency: 'weekely',
      },
    });
  });

  it('declining is exit 130 and sends nothing', async () => {
    const id = await submittedLoan();
    for (const args of [terms(id), ['loan', 'delete', String(id)]]) {
      const { exitCode } = await run(args, { answers: { confirm: async () => false } });
      expect(exitCode).toBe(130);
    }
    // approve reads the loan request to review it; nothing is written.
    expect(front.sent().filter((sent) => sent.key !== 'listLoanRequests')).toEqual([]);
  });

  it('loan delete --yes piped prints what a script can use, not the null the API sends', async () => {
    const [id, other] = await seedLoans(2);
    const deleted = await run(['loan', 'delete', String(id), '--yes']);
    expect(deleted.exitCode, deleted.stderr).toBe(0);
    expect(deleted.json()).toEqual({ id, deleted: true });
    const csv = await run(['-o', 'csv', '--fields', 'id', 'loan', 'delete', String(other), '--yes']);
    expect(csv.stdout, csv.stderr).toBe(`id\n${other}\n`);
  });

  it('off a terminal, a missing --yes is exit 2 naming --yes; --no-input counts as off', async () => {
    const { exitCode, stderr } = await run(['--no-input', 'loan', 'delete', '5'], { answers: {} });
    expect(exitCode).toBe(2);
    expect(stderr).toContain('--yes');
  });

  it('an unknown --fields name is exit 2 before anything is asked or sent', async () => {
    const id = await submittedLoan();
    const bad = await run(['--fields', 'id,terms.frequency', ...terms(id)], { answers: {} });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/--fields: unknown field "terms.frequency"; nothing was sent/);
    expect(front.sent()).toEqual([]);
    const ok = await run(['--fields', 'id,status', ...terms(id), '--yes']);
    expect(ok.exitCode).toBe(0);
    expect(keys()).toEqual(['listLoanRequests', 'approveLoanRequest']);
  });

  it('bad terms are caught before the question is asked', async () => {
    const args = terms(5).map((arg) => (arg === 'simple-interest' ? 'flat' : arg));
    const { exitCode, stderr } = await run(args, { answers: {} });
    expect(exitCode).toBe(2);
    expect(stderr).toMatch(/--rate-type must be one of/);
  });
});

describe('user create', () => {
  const flags = ['--firstname', 'Ada', '--lastname', 'Obi', '--email', 'ada@example.com', '--gender', 'female'];
  const sent = { firstname: 'Ada', lastname: 'Obi', email: 'ada@example.com', gender: 'female' };

  it('asks for the password with a masked prompt on a terminal, after checking the other fields', async () => {
    let asked = 0;
    const answers = {
      password: async () => {
        asked++;
        return 'pw';
      },
    };
    const bad = await run(['user', 'create', ...flags, '--phone', '123'], { answers });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/--phone/);
    expect(asked).toBe(0);
    const { exitCode, stdout } = await run(['user', 'create', ...flags, '--phone', '08012345678'], { answers });
    expect(exitCode).toBe(0);
    expect(asked).toBe(1);
    expect(front.sent()[0]?.body).toEqual({ ...sent, phone: '+2348012345678', password: 'pw' });
    expect(JSON.parse(stdout)).toMatchObject({ status: 'created' });
    expect(stdout).not.toContain('"password"');
  });

  it('an existing e-mail is success with "status": "exists" and a notice', async () => {
    await seedBorrower();
    const { exitCode, stdout, stderr } = await run(
      ['user', 'create', ...flags, '--phone', '08012345678', '--password-stdin'],
      { stdin: 'pw\n' },
    );
    expect(exitCode).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ email: 'ada@example.com', status: 'exists' });
    expect(stderr).toContain('already exists; nothing was created');
    expect(stderr).toContain('next: loanctl loan create --user ada@example.com');
  });

  it('sends a password from stdin exactly as given, spaces included, without the final newline', async () => {
    const { exitCode } = await run(['user', 'create', ...flags, '--phone', '08012345678', '--password-stdin'], {
      stdin: ' two words \n',
    });
    expect(exitCode).toBe(0);
    expect(front.sent()[0]?.body).toMatchObject({ password: ' two words ' });
  });

  it('--password-stdin and --data - cannot share stdin', async () => {
    const { exitCode, stderr } = await run(['user', 'create', '--password-stdin', '--data', '-']);
    expect(exitCode).toBe(2);
    expect(stderr).toMatch(/both read stdin/);
  });
});

describe('loan show', () => {
  it('sends its five requests at once and finds the loan request through the list', async () => {
    const [id] = await seedLoans(1);
    if (id === undefined) throw new Error('no loan request');
    await seed('addBankDetails', id);
    // The front answers none of the five until all five have come: sent one after another, the
    // first would never be answered.
    front.gather(5);
    const { exitCode, stdout } = await run(['loan', 'show', String(id)]);
    expect(exitCode).toBe(0);
    expect(keys().sort()).toEqual([
      'getBankDetails',
      'getEmployment',
      'getGuarantors',
      'getProgress',
      'listLoanRequests',
    ]);
    expect(front.sent().find((sent) => sent.key === 'listLoanRequests')?.query).toEqual({
      'product-id': product(),
      direction: 'ASC',
      cursor: String(id - 1),
      limit: '1',
    });
    expect(JSON.parse(stdout)).toMatchObject({
      loan_request: { id },
      bank_details: [{ code: '058' }],
      guarantors: [],
      employment: null,
    });
  });

  it('a list whose first row is another id means not found (exit 4)', async () => {
    const [, second] = await seedLoans(3);
    if (second === undefined) throw new Error('no loan request');
    await seed('deleteLoanRequest', second, undefined);
    const { exitCode, stderr } = await run(['loan', 'show', String(second)]);
    expect(exitCode).toBe(4);
    expect(stderr).toContain(`No loan request ${second} under product ${product()} in your organisation.`);
  });
});

describe('loan create --user EMAIL', () => {
  it('finds a borrower just created on the page of the newest, without asking whether it exists', async () => {
    for (let i = 0; i < USERS_PAGE_SIZE; i++) await seedBorrower(`other${i}@example.com`);
    const userId = await seedBorrower('Ada@Example.com');
    const { exitCode, stderr } = await run([
      'loan',
      'create',
      '--user',
      'ada@example.com',
      '--amount',
      '50,000',
      '--purpose',
      ' Stock ',
    ]);
    expect(exitCode).toBe(0);
    expect(keys()).toEqual(['listUsers', 'createLoanRequest']);
    expect(front.sent().at(-1)).toMatchObject({
      key: 'createLoanRequest',
      params: { user_id: String(userId) },
      query: { 'product-id': product() },
      body: { amount: 50000, purpose: 'Stock' },
    });
    expect(stderr).toContain(`ada@example.com is user ${userId}.`);
  });

  it('says an unknown e-mail is not found after the page of the newest and asking whether it exists (exit 4)', async () => {
    await seedBorrower('a@example.com');
    const ghost = await run(['loan', 'create', '--user', 'ghost@example.com', '--amount', '5', '--purpose', 'x']);
    expect(ghost.exitCode).toBe(4);
    expect(keys()).toEqual(['listUsers', 'userExists']);
  });

  it('stops on a server that repeats one page for every page number, and says not found (exit 4)', async () => {
    await seedBorrower('a@example.com');
    // A server that says the e-mail exists, yet shows the same page for every page number.
    front.rewrite('userExists', (reply) => ({ ...reply, data: true }));
    let first: unknown;
    front.rewrite('listUsers', (reply) => {
      first ??= reply;
      return first;
    });
    const repeating = await run(['loan', 'create', '--user', 'ghost@example.com', '--amount', '5', '--purpose', 'x']);
    expect(repeating.exitCode).toBe(4);
    expect(keys().length).toBeLessThan(10);
    expect(keys()).not.toContain('createLoanRequest');
  });

  it('checks --product before looking anything up', async () => {
    const { exitCode, stderr } = await run(['loan', 'create', '--user', 'a@b.co', '--amount', '5', '--purpose', 'x'], {
      env: { LOANCTL_PRODUCT_ID: '' },
    });
    expect(exitCode).toBe(2);
    expect(stderr).toMatch(/Missing --product/);
    expect(front.sent()).toEqual([]);
  });
});

describe('loan list and user list paging', () => {
  it('loan list --all walks the cursor until an empty page and prints one JSON array', async () => {
    const [first, second, third] = await seedLoans(3);
    const { exitCode, stdout } = await run(['loan', 'list', '--all', '--limit', '2']);
    expect(exitCode).toBe(0);
    const page = { 'product-id': product(), direction: 'DESC', limit: '2' };
    expect(front.sent().map((sent) => sent.query)).toEqual([
      page,
      { ...page, cursor: String(second) },
      { ...page, cursor: String(first) },
    ]);
    expect(JSON.parse(stdout).map((row: { id: number }) => row.id)).toEqual([third, second, first]);
  });

  it('loan list says next: --cursor only when a look-ahead finds more', async () => {
    const [, second] = await seedLoans(3);
    const more = await run(['loan', 'list', '--limit', '2']);
    expect(more.stderr).toBe(`next: --cursor ${second} --limit 2\n`);
  });

  it('user list --page 2 says next: --page 3 when page 3 has users', async () => {
    for (let i = 0; i < 2 * USERS_PAGE_SIZE + 1; i++) await seedBorrower(`user${i}@example.com`);
    const { exitCode, stderr } = await run(['user', 'list', '--page', '2']);
    expect(exitCode).toBe(0);
    expect(stderr).toBe('next: --page 3\n');
  });
});

describe('loan add-business org id', () => {
  const business = ['--name', 'N', '--role', 'owner', '--industry', 'retail', '--description', 'd', '--registered'];

  it('comes from the first page of the user list when neither a flag nor a profile gives it', async () => {
    const [id] = await seedLoans(1);
    const { exitCode, stderr } = await run(['loan', 'add-business', String(id), ...business]);
    expect(exitCode).toBe(0);
    expect(keys()).toEqual(['listUsers', 'addBusinessInfo']);
    expect(front.sent()[1]?.body).toMatchObject({ org_id: sandbox.org_id, registered: true });
    expect(stderr).toContain(`Using org id ${sandbox.org_id}`);
  });

  it('--org-id wins and nothing is looked up', async () => {
    const [id] = await seedLoans(1);
    const args = ['loan', 'add-business', String(id), ...business, '--org-id', String(sandbox.org_id)];
    const { exitCode } = await run(args);
    expect(exitCode).toBe(0);
    expect(keys()).toEqual(['addBusinessInfo']);
    expect(front.sent()[0]?.body).toMatchObject({ org_id: sandbox.org_id });
  });

  it('other mistakes are reported before the lookup', async () => {
    const wrongDate = await run(['loan', 'add-business', '5', ...business, '--established-on', '2019-02-30']);
    expect(wrongDate.exitCode).toBe(2);
    expect(wrongDate.stderr).toMatch(/--established-on/);
    const missing = await run(['loan', 'add-business', '5', '--name', 'N']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/Missing --role, --industry/);
    expect(front.sent()).toEqual([]);
  });
});

/**
 * `loan new` run through the real program (runCli) against a real in-process sandbox, with the
 * scripted prompter answering: the requests sent and their order (seen at the HTTP boundary by
 * ../helpers/sandbox-front.ts, which forwards every one to the sandbox), answers refused with the
 * reason and asked again, Ctrl-C at a prompt and while a request is out (exit 130, what was
 * created, the --resume command), and --resume offering only the steps that remain.
 *
 * The front answers in the sandbox's place only for what a real server does not do on demand: a
 * request that never answers, a refusal, and progress or timestamp values the sandbox never sends.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Env } from '../../src/basics.js';
import { writeProfile } from '../../src/config/store.js';
import type { EndpointKey } from '../../src/contract/endpoints.js';
import { choose } from '../../src/prompts/ask.js';
import { type CliResult, type CliSandbox, cliSandbox, type RunCliOptions } from '../helpers/run-cli.js';
import { call, findUserId, sampleBody, userBody } from '../helpers/sandbox.js';
import { type SandboxFront, sandboxFront } from '../helpers/sandbox-front.js';
import { type Asked, CTRL_C, type Script, scripted } from '../helpers/scripted-prompter.js';

/** The last line of stderr a person reads: under -o json an error is followed by its JSON object. */
function lastLine(stderr: string): string | undefined {
  return stderr
    .trim()
    .split('\n')
    .filter((line) => !line.startsWith('{"error":'))
    .at(-1);
}

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

interface FlowRun extends CliResult {
  asked: Asked[];
  remaining: Script;
}

/** `loanctl ARGS` on a terminal, through the front, the prompts answered by `script`. */
async function run(args: string[], script: Script, options: RunCliOptions & { env?: Env } = {}): Promise<FlowRun> {
  const { prompter, asked, remaining } = scripted(script);
  const result = await sandbox.run(['-o', 'json', ...args], {
    tty: true,
    now: () => new Date('2025-01-01T10:00:00Z'),
    prompter,
    ...options,
    env: { LOANCTL_BASE_URL: front.url, ...options.env },
  });
  return { ...result, asked, remaining };
}

const keys = () => front.sent().map((sent) => sent.key);
const sentTo = (key: EndpointKey) => front.sent().filter((sent) => sent.key === key);
const menus = (asked: Asked[]) => asked.filter((entry) => entry.kind === 'select' && /What next/.test(entry.message));

/** A borrower in the sandbox (not through the front): its id. */
async function seedBorrower(fields: Record<string, unknown> = {}): Promise<number> {
  const body = userBody({ email: 'ada@example.com', ...fields });
  const created = await call(sandbox.app, 'createUser', { key: sandbox.api_key, body });
  if (created.json.status !== 'success') throw new Error(created.raw);
  return findUserId(sandbox.app, sandbox.org, body.email);
}

/** An operation on loan request `id` (or a new one for user `id`) in the sandbox: its reply's data. */
async function seed(key: EndpointKey, id: number, body: unknown = sampleBody(key, sandbox.org_id)) {
  const params: Record<string, number> = key === 'createLoanRequest' ? { user_id: id } : { id };
  const query = key === 'approveLoanRequest' ? { action: 'approve' } : undefined;
  const reply = await call(sandbox.app, key, {
    key: sandbox.api_key,
    productId: sandbox.product_id,
    params,
    ...(query && { query }),
    body,
  });
  if (reply.json.status !== 'success') throw new Error(`${key}: ${reply.raw}`);
  return reply.json.data as { id: number };
}

/** Answers for a new borrower whose phone is first typed wrong. */
const NEW_BORROWER: Script = [
  [/Borrower's e-mail/, 'not-an-email'],
  [/Borrower's e-mail/, 'ada@example.com'],
  [/No borrower with e-mail ada@example.com yet\. Create one\?/, true],
  [/First name/, 'Ada'],
  [/Last name/, ' '],
  [/Last name/, 'Obi'],
  [/Phone/, '123'],
  [/Phone/, '0801 234 5678'],
  [/Gender/, 'female'],
  [/password/, ''],
  [/password/, 's3cret pass'],
];

const EXISTING_BORROWER = (amount = '100', purpose = 'x'): Script => [
  [/Borrower's e-mail/, 'ada@example.com'],
  [/Amount requested/, amount],
  [/Purpose/, purpose],
];

const BANK: Script = [
  [/What next\?/, 'bank'],
  [/Bank code/, '058'],
  [/Account name/, ''], // takes the default: the borrower's name
  [/Account number/, '0123456789'],
  [/Bank name/, ''],
];

const GUARANTOR = (firstname: string, email: string): Script => [
  [/Guarantor's first name/, firstname],
  [/Guarantor's last name/, 'Eze'],
  [/Guarantor's gender/, 'male'],
  [/Relationship/, 'brother'],
  [/Guarantor's e-mail/, email],
  [/Guarantor's phone/, '08055555555'],
];

describe('loan new: the whole flow', () => {
  it('creates the borrower, the loan request, sends each step as answered, submits and approves after the preview', async () => {
    const { exitCode, stdout, stderr, asked, remaining } = await run(
      ['loan', 'new'],
      [
        ...NEW_BORROWER,
        [/Amount requested/, 'abc'],
        [/Amount requested/, '0'],
        [/Amount requested/, '50,000'],
        [/Purpose/, 'Shop stock'],
        ...BANK,
        [/What next\?/, 'guarantor'],
        ...GUARANTOR('Chi', 'chi@example').slice(0, 5),
        [/Guarantor's e-mail/, 'chi@example.com'],
        [/Guarantor's phone/, '08055555555'],
        [/Add another guarantor\?/, true],
        ...GUARANTOR('Obi', 'obi@example.com'),
        [/Add another guarantor\?/, false],
        [/What next\?/, 'review'],
        [/Submit loan request \d+ now\?/, true],
        [/Approve loan request \d+ now\?/, true],
        [/Approved amount/, '60000'],
        [/Approved amount/, '45000'],
        [/Tenure in/, 'months'],
        [/Tenure/, '0'],
        [/Tenure/, '3'],
        [/Rate type/, 'simple-interest'],
        [/Rate/, '-5'],
        [/Rate/, '5'],
        [/Repayment frequency/, 'weekely'],
        [/Grace period/, ''],
        [/weekends/, false],
        [/Note/, ''],
        [
          /Approve loan request \d+: 45,000\.00 at 5 % per month \(simple interest\) over 3 months, repaid weekly\?/,
          true,
        ],
      ],
    );
    expect(stderr).not.toContain('Stopped');
    expect(exitCode).toBe(0);
    expect(remaining).toEqual([]);

    // The requests, in order: each step went out as soon as it was answered.
    // A borrower is looked up on the first page of those created since yesterday, then by `user
    // exists` (src/domain/users.ts); once created, it is on that page.
    expect(keys()).toEqual([
      'listUsers',
      'userExists',
      'createUser',
      'listUsers',
      'createLoanRequest',
      'addBankDetails',
      'addGuarantor',
      'addGuarantor',
      'submitLoanRequest',
      'approveLoanRequest',
    ]);
    const sent = front.sent();
    const product = String(sandbox.product_id);
    expect(
      sent.every(
        (one) => ['userExists', 'listUsers', 'createUser'].includes(one.key) || one.query['product-id'] === product,
      ),
    ).toBe(true);
    expect(sent[2]?.body).toEqual({
      firstname: 'Ada',
      lastname: 'Obi',
      email: 'ada@example.com',
      phone: '+2348012345678',
      gender: 'female',
      password: 's3cret pass',
    });
    const userId = await findUserId(sandbox.app, sandbox.org, 'ada@example.com');
    expect(sent[4]).toMatchObject({
      params: { user_id: String(userId) },
      body: { amount: 50000, purpose: 'Shop stock' },
    });
    const loanId = Number(sent[5]?.params.id);
    expect(sent[5]?.body).toEqual({ code: '058', account_name: 'Ada Obi', account_number: '0123456789' });
    expect(sent[6]?.body).toEqual({
      firstname: 'Chi',
      lastname: 'Eze',
      gender: 'male',
      relationship: 'brother',
      email: 'chi@example.com',
      phone: '+2348055555555',
    });
    expect(sent[9]).toMatchObject({
      params: { id: String(loanId) },
      query: { action: 'approve' },
      body: {
        approved_amount: 45000,
        rate: 5,
        tenure: 3,
        tenured_in: 'months',
        rate_type: 'simple-interest',
        frequency: 'weekely',
        grace_period: 0,
        exclude_weekends: false,
      },
    });

    // Wrong answers were refused with the contract's reason, and asked again.
    expect(asked.filter((entry) => entry.refused).map((entry) => entry.refused)).toEqual([
      'Borrower\'s e-mail must be an e-mail address (got "not-an-email").',
      'Last name must not be empty (got " ").',
      'Phone must be a Nigerian phone number: +234 and 10 digits, 234 and 10 digits, or 0 and 10 digits (got "123").',
      "Borrower's password must not be empty.",
      'Amount requested must be a positive amount written with digits (got "abc").',
      'Amount requested must be more than 0 (got "0").',
      'Guarantor\'s e-mail must be an e-mail address (got "chi@example").',
      'Approved amount must not be more than the amount requested (50,000.00).',
      'Tenure must be at least 1 (got "0").',
      'Rate must be a number of 0 or more written with digits (got "-5").',
    ]);
    // The password was asked masked.
    expect(asked.find((entry) => /password/.test(entry.message))?.kind).toBe('password');

    // Review screen, then the repayment preview before the approval question.
    const loan = JSON.parse(stdout) as { id: number; reference: string };
    expect(stderr).toContain(`Review: loan request ${loanId} (${loan.reference})`);
    expect(stderr).toMatch(new RegExp(`Borrower\\s+Ada Obi <ada@example.com> \\(user ${userId}\\)`));
    expect(stderr).toMatch(/Bank details\s+058 · Ada Obi · 0123456789/);
    expect(stderr).toMatch(/Guarantors\s+Chi Eze \(brother\) · \+2348055555555\n\s+Obi Eze \(brother\)/);
    expect(stderr).toMatch(/Employment\s+—/);
    expect(stderr).toContain('Loan of 45,000.00 at 5 % per month (simple interest) over 3 months, repaid weekly.');
    expect(stderr).toMatch(/12 instalments; the last is due 2025-04-01 Tue/);
    expect(stderr.indexOf('instalments;')).toBeLessThan(stderr.indexOf(`Approved loan request ${loanId}`));

    // The approved loan request on stdout (JSON: -o json).
    expect(loan).toMatchObject({ id: loanId, lender_status: 'approved' });
  });
});

describe('loan new: the borrower and the optional steps', () => {
  it('finds an existing borrower by e-mail; "finish later" sends nothing more and says how to continue', async () => {
    const userId = await seedBorrower({ email: 'Ada@Example.com' });
    const product = String(sandbox.product_id);
    const { exitCode, stderr, asked } = await run(
      ['loan', 'new', '--product', product],
      [...EXISTING_BORROWER('1250.50', 'Freezer'), [/What next\?/, 'later']],
    );
    expect(exitCode).toBe(0);
    expect(keys()).toEqual(['listUsers', 'createLoanRequest']);
    expect(front.sent()[1]).toMatchObject({
      params: { user_id: String(userId) },
      body: { amount: 1250.5, purpose: 'Freezer' },
    });
    // Nothing added yet: review is offered but cannot be taken.
    const menu = menus(asked)[0]?.choices ?? [];
    expect(menu.find((choice) => choice.value === 'review')?.disabled).toMatch(/add at least one/);
    expect(menu.map((choice) => choice.value)).toEqual([
      'bank',
      'employment',
      'business',
      'guarantor',
      'document',
      'review',
      'later',
    ]);
    expect(stderr).toContain(`Found Ada Obi (user ${userId}`);
    const loanId = await newestLoanId();
    expect(stderr).toContain(`Continue with: loanctl loan new --resume ${loanId} --product ${product}`);
  });

  it('declining to create the borrower asks for the e-mail again', async () => {
    await seedBorrower({ firstname: 'Bola', lastname: 'Ade', email: 'bola@example.com' });
    const { exitCode, remaining } = await run(
      ['loan', 'new'],
      [
        [/Borrower's e-mail/, 'typo@example.com'],
        [/Create one\?/, false],
        [/Borrower's e-mail/, 'bola@example.com'],
        [/Amount requested/, '100'],
        [/Purpose/, 'x'],
        [/What next\?/, 'later'],
      ],
    );
    expect(exitCode).toBe(0);
    expect(remaining).toEqual([]);
    // typo@…: not on the newest page, and `user exists` says no; bola@… is on the newest page.
    expect(keys()).toEqual(['listUsers', 'userExists', 'listUsers', 'createLoanRequest']);
  });

  it('business information: org id from the loan request, registration number only when registered; documents need an http(s) URL', async () => {
    await seedBorrower();
    const { exitCode, asked } = await run(
      ['loan', 'new'],
      [
        ...EXISTING_BORROWER(),
        [/What next\?/, 'business'],
        [/Business name/, 'Ada Stores'],
        [/role/, 'owner'],
        [/Industry/, 'retail'],
        [/What the business does/, 'Groceries'],
        [/registered\?/, true],
        [/Registration number/, 'RC1'],
        [/Established on/, '2019-02-30'],
        [/Established on/, '2019-03-01'],
        [/Physical location/, ''],
        [/Average monthly income/, ''],
        [/Number of employees/, '12'],
        [/What next\?/, 'document'],
        [/Document type/, 'passport'],
        [/Document title/, 'Passport'],
        [/Number on the document/, 'A1'],
        [/URL/, 'ftp://files.example.com/a.jpg'],
        [/URL/, 'https://files.example.com/a.jpg'],
        [/Add another document\?/, false],
        [/What next\?/, 'later'],
      ],
    );
    expect(exitCode).toBe(0);
    expect(sentTo('addBusinessInfo')[0]?.body).toEqual({
      name: 'Ada Stores',
      org_id: sandbox.org_id,
      role: 'owner',
      industry: 'retail',
      description: 'Groceries',
      registered: true,
      registration_number: 'RC1',
      established_on: '2019-03-01',
      number_of_employees: '12',
    });
    expect(sentTo('uploadDocument')[0]?.body).toMatchObject({ document_url: 'https://files.example.com/a.jpg' });
    expect(asked.filter((entry) => entry.refused).map((entry) => entry.refused)).toEqual([
      'Established on must be a real date written yyyy-mm-dd (got "2019-02-30").',
      'URL of the document\'s image must be an http or https URL (got "ftp://files.example.com/a.jpg").',
    ]);
    // Business information is done once: the next menu no longer offers it; documents repeat.
    expect((menus(asked).at(-1)?.choices ?? []).map((choice) => choice.name)).toEqual([
      'Add bank details',
      'Add employment',
      'Add a guarantor',
      'Add another document (1 so far)',
      'Review and submit',
      'Finish later (the loan request stays saved)',
    ]);
  });

  it('a step the API refuses is reported and the menu comes back; nothing is lost', async () => {
    await seedBorrower();
    // The sandbox takes any bank code: the refusal is the front's.
    front.answer('addBankDetails', 400, { status: 'error', message: 'Bank code 999 is not known.' });
    const { exitCode, stderr, remaining } = await run(
      ['loan', 'new'],
      [
        ...EXISTING_BORROWER(),
        [/What next\?/, 'bank'],
        [/Bank code/, '999'],
        [/Account name/, 'Ada Obi'],
        [/Account number/, ''],
        [/Bank name/, ''],
        [/What next\?/, 'later'],
      ],
    );
    expect(exitCode).toBe(0);
    expect(remaining).toEqual([]);
    expect(stderr).toMatch(/\nloanctl: .*Bank code 999 is not known\./);
    expect(stderr).toContain('Nothing was added.');
  });

  it('declining the approval leaves the loan request submitted (exit 0) and says how to approve later', async () => {
    await seedBorrower();
    const { exitCode, stdout, stderr } = await run(
      ['loan', 'new'],
      [
        ...EXISTING_BORROWER(),
        ...BANK,
        [/What next\?/, 'review'],
        [/Submit/, true],
        [/Approve loan request \d+ now\?/, false],
      ],
    );
    expect(exitCode).toBe(0);
    expect(keys().at(-1)).toBe('submitLoanRequest');
    const loanId = await newestLoanId();
    expect(stderr).toContain(`Not approved. When ready: loanctl loan approve ${loanId} --preview`);
    expect(JSON.parse(stdout)).toMatchObject({ id: loanId, user_status: 'submitted' });
  });
});

/** The id of the product's newest loan request, as the sandbox has it. */
async function newestLoanId(): Promise<number> {
  const list = await call(sandbox.app, 'listLoanRequests', {
    key: sandbox.api_key,
    productId: sandbox.product_id,
    query: { direction: 'DESC', limit: 1 },
  });
  const page = list.json.data as { loan_requests: Array<{ id: number }> };
  const newest = page.loan_requests[0];
  if (!newest) throw new Error('the sandbox has no loan request');
  return newest.id;
}

describe('loan new: Ctrl-C', () => {
  it('mid-way: exit 130, what was created (with ids) and the --resume command', async () => {
    const { exitCode, stderr } = await run(
      ['loan', 'new'],
      [
        ...NEW_BORROWER,
        [/Amount requested/, '50000'],
        [/Purpose/, 'Shop stock'],
        ...BANK,
        [/What next\?/, 'guarantor'],
        [/Guarantor's first name/, 'Chi'],
        [/Guarantor's last name/, CTRL_C],
      ],
    );
    expect(exitCode).toBe(130);
    const userId = await findUserId(sandbox.app, sandbox.org, 'ada@example.com');
    const loanId = await newestLoanId();
    expect(lastLine(stderr)).toBe(`loanctl: Cancelled. Continue with: loanctl loan new --resume ${loanId}`);
    expect(keys()).toEqual([
      'listUsers',
      'userExists',
      'createUser',
      'listUsers',
      'createLoanRequest',
      'addBankDetails',
    ]);
    expect(stderr).toContain(
      [
        'Stopped. Created so far:',
        `  user ${userId} (ada@example.com)`,
        `  loan request ${loanId} (50,000.00, Shop stock)`,
        '  bank details: 058 · Ada Obi · 0123456789',
      ].join('\n'),
    );
  });

  it('before anything is created: "Nothing was created." and one line, no command; after the borrower: start again', async () => {
    const early = await run(
      ['loan', 'new'],
      [
        [/Borrower's e-mail/, 'ada@example.com'],
        [/Create one\?/, CTRL_C],
      ],
    );
    expect(early.exitCode).toBe(130);
    expect(early.stderr).toContain('Nothing was created.');
    expect(lastLine(early.stderr)).toBe('loanctl: Cancelled.');
    const later = await run(['loan', 'new'], [...NEW_BORROWER, [/Amount requested/, CTRL_C]]);
    expect(later.exitCode).toBe(130);
    const userId = await findUserId(sandbox.app, sandbox.org, 'ada@example.com');
    expect(later.stderr).toContain(`  user ${userId} (ada@example.com)`);
    expect(later.stderr).toContain(
      'loanctl: Cancelled. Start again with: loanctl loan new (the borrower ada@example.com is there now)',
    );
  });

  /** Runs the flow until `key` is sent (the front never answers it), then Ctrl-C: SIGINT with no prompt open. */
  async function interruptDuring(key: EndpointKey, script: Script, args: string[] = []) {
    const listening = process.listenerCount('SIGINT');
    const arrived = front.hold(key);
    const running = run(['loan', 'new', ...args], script);
    await arrived;
    expect(process.listenerCount('SIGINT')).toBe(listening + 1);
    process.emit('SIGINT');
    const result = await running;
    expect(process.listenerCount('SIGINT')).toBe(listening);
    return result;
  }

  it('while a request is out (SIGINT, no prompt open): stops at once with the summary', async () => {
    await seedBorrower();
    const { exitCode, stderr } = await interruptDuring('addEmployment', [
      ...EXISTING_BORROWER(),
      [/What next\?/, 'employment'],
      [/Employment status/, 'employed'],
      [/Employer's name/, 'Acme'],
      [/Employer's address/, '1 Marina'],
      [/Position/, 'Cashier'],
      [/Monthly salary/, '150,000'],
      [/Manager's name/, 'Bola'],
      [/Manager's phone/, '08098765432'],
      [/Manager's e-mail/, 'bola@acme.ng'],
    ]);
    const loanId = await newestLoanId();
    expect(exitCode).toBe(130);
    expect(lastLine(stderr)).toBe(`loanctl: Cancelled. Continue with: loanctl loan new --resume ${loanId}`);
    expect(stderr).toContain(
      `Ctrl-C came while employment information for loan request ${loanId} was being sent: it may have gone through, and then it is not listed above. Check with: loanctl loan show ${loanId}\n`,
    );
    expect(front.sent().at(-1)?.body).toMatchObject({ salary: 150000, manager_phone: '+2348098765432' });
  });

  it('while the loan request is being created: says it may exist now and names the command that shows it', async () => {
    await seedBorrower();
    const product = String(sandbox.product_id);
    const { exitCode, stderr } = await interruptDuring('createLoanRequest', EXISTING_BORROWER(), [
      '--product',
      product,
    ]);
    expect(exitCode).toBe(130);
    expect(stderr).toContain('Nothing was created.');
    expect(stderr).toContain(
      `Ctrl-C came while the new loan request was being sent: it may have gone through, and then it is not listed above. Check with: loanctl loan list --limit 1 --product ${product}\n`,
    );
  });

  it('while the borrower is being created: names `user exists` for that e-mail', async () => {
    const { stderr } = await interruptDuring('createUser', NEW_BORROWER);
    expect(stderr).toContain('Check with: loanctl user exists --email ada@example.com\n');
  });

  it('while only a lookup is out: nothing to check, so no note and no command', async () => {
    await seedBorrower();
    const { exitCode, stderr } = await interruptDuring('listUsers', [[/Borrower's e-mail/, 'ada@example.com']]);
    expect(exitCode).toBe(130);
    expect(stderr).toBe(
      'A new loan request, step by step. Ctrl-C stops at any point; what was sent stays.\n\n\nNothing was created.\nloanctl: Cancelled.\n' +
        '{"error":{"code":"cancelled","exit":130,"message":"Cancelled."}}\n',
    );
  });
});

describe('loan new --resume', () => {
  /** A borrower with two loan requests; the second has bank details, employment and a guarantor. Its id. */
  async function existing(): Promise<number> {
    const userId = await seedBorrower();
    await seed('createLoanRequest', userId);
    const { id } = await seed('createLoanRequest', userId, { amount: 80000, purpose: 'Freezer' });
    await seed('addBankDetails', id, { code: '058', account_name: 'Ada Obi' });
    await seed('addEmployment', id, {
      ...sampleBody('addEmployment', 0),
      company_name: 'Acme Ltd',
      position: 'engineer',
    });
    await seed('addGuarantor', id, { ...sampleBody('addGuarantor', 0), firstname: 'Chidi', lastname: 'Obi' });
    return id;
  }

  const RESUME_READS = ['getBankDetails', 'getEmployment', 'getGuarantors', 'getProgress'];

  it('reads progress, bank details, guarantors and employment, shows them, and offers only the steps that remain', async () => {
    const id = await existing();
    const progress = await call(sandbox.app, 'getProgress', {
      key: sandbox.api_key,
      productId: sandbox.product_id,
      params: { id },
    });
    const { exitCode, stderr, asked } = await run(
      ['loan', 'new', '--resume', String(id)],
      [
        [/What next\?/, 'business'],
        [/Business name/, CTRL_C],
      ],
    );
    // The look-up first, then the four reads at once (in any order).
    expect(keys()[0]).toBe('listLoanRequests');
    expect(keys().slice(1).sort()).toEqual(RESUME_READS);
    expect(front.sent()[0]?.query).toEqual({
      'product-id': String(sandbox.product_id),
      direction: 'ASC',
      cursor: String(id - 1),
      limit: '1',
    });
    const menu = menus(asked)[0]?.choices ?? [];
    expect(menu.map((choice) => choice.value)).toEqual(['business', 'guarantor', 'document', 'review', 'later']);
    expect(menu.find((choice) => choice.value === 'guarantor')?.name).toBe('Add another guarantor (1 so far)');
    expect(menu.find((choice) => choice.value === 'review')?.disabled).toBeUndefined();
    expect(stderr).toMatch(new RegExp(`Loan request ${id} \\(\\w+\\) for Ada Obi: 80,000\\.00, Freezer\\.`));
    expect(stderr).toContain(`Progress: ${progress.json.data};`);
    expect(stderr).toMatch(/Bank details\s+058 · Ada Obi/);
    expect(stderr).toMatch(/Employment\s+engineer at Acme Ltd · employed/);
    expect(stderr).toMatch(/Guarantors\s+Chidi Obi \(brother\)/);
    expect(stderr).toContain('Still to add, if you want: business information, guarantor, document.');
    // Ctrl-C on a resumed loan request: nothing new was created, the same command continues.
    expect(exitCode).toBe(130);
    expect(stderr).toContain('Nothing new was sent in this run.');
    expect(lastLine(stderr)).toBe(`loanctl: Cancelled. Continue with: loanctl loan new --resume ${id}`);
  });

  it('the progress string decides nothing: what is attached comes from the records, the state from the loan request', async () => {
    // The spec never defines the markers' values: whatever the real service says, even a marker
    // that reads like a state, changes neither what is shown nor what is offered. (The sandbox
    // says its own: the front puts the others in its reply.)
    const id = await existing();
    for (const progress of ['approved', 'submitted', 'business_information', 'document', 'STAGE_3', '']) {
      front.rewrite('getProgress', (reply) => ({ ...reply, data: progress }));
      const { exitCode, stderr, asked } = await run(
        ['loan', 'new', '--resume', String(id)],
        [[/What next\?/, 'later']],
      );
      expect(exitCode, progress).toBe(0);
      expect(stderr, progress).not.toContain('already approved');
      const menu = menus(asked)[0]?.choices ?? [];
      expect(menu.map((choice) => choice.value)).toEqual(['business', 'guarantor', 'document', 'review', 'later']);
      // Business information and documents are not shown back: unknown, never "added".
      expect(stderr).toMatch(/Business information\s+not known \(the API does not show it back\)/);
      expect(stderr).toMatch(/Documents\s+not known \(the API does not show it back\)/);
      expect(stderr).toMatch(/Bank details\s+058 · Ada Obi/);
      expect(stderr).not.toContain(`Approve loan request ${id} now?`);
      if (progress !== '') expect(stderr).toContain(`Progress: ${progress};`);
    }
  });

  it('records decide what is attached whatever the progress says: none found, every step offered', async () => {
    const { id } = await seed('createLoanRequest', await seedBorrower());
    front.rewrite('getProgress', (reply) => ({ ...reply, data: 'employment' }));
    const { stderr, asked } = await run(['loan', 'new', '--resume', String(id)], [[/What next\?/, 'later']]);
    const menu = menus(asked)[0]?.choices ?? [];
    expect(menu.map((choice) => choice.value)).toEqual(
      expect.arrayContaining(['bank', 'employment', 'business', 'guarantor', 'document']),
    );
    expect(stderr).toMatch(/Employment\s+—/);
  });

  it('submitted and approved are read from the loan request (status or its timestamps), not from progress', async () => {
    const id = await existing();
    /** The loan request as the real service may send it: only a timestamp says what happened. */
    const stamped = (fields: Record<string, string>) =>
      front.rewrite('listLoanRequests', (reply) => {
        const page = reply.data as { loan_requests: Array<Record<string, unknown>> };
        return { ...reply, data: { ...page, loan_requests: page.loan_requests.map((row) => ({ ...row, ...fields })) } };
      });
    front.rewrite('getProgress', (reply) => ({ ...reply, data: 'STAGE_3' }));
    // Submitted: only submitted_at says so (in the real service's nanosecond form).
    stamped({ submitted_at: '2022-02-11T09:10:25.815412395+01:00' });
    const submitted = await run(['loan', 'new', '--resume', String(id)], [[/Approve loan request \d+ now\?/, false]]);
    expect(submitted.exitCode).toBe(0);
    expect(keys()).not.toContain('submitLoanRequest');

    // Approved: only approved_at says so.
    stamped({
      submitted_at: '2022-02-11T09:10:25.815412395+01:00',
      approved_at: '2022-02-12T10:00:00.123456789+01:00',
    });
    const approved = await run(['loan', 'new', '--resume', String(id)], []);
    expect(approved.stderr).toContain('already approved');
  });

  it('a submitted loan request goes straight to the approval question; an approved one has nothing left', async () => {
    const id = await existing();
    await seed('submitLoanRequest', id, undefined);
    const submitted = await run(['loan', 'new', '--resume', String(id)], [[/Approve loan request \d+ now\?/, false]]);
    expect(submitted.exitCode).toBe(0);
    expect(keys()).not.toContain('submitLoanRequest');

    await seed('approveLoanRequest', id);
    const approved = await run(['loan', 'new', '--resume', String(id)], []);
    expect(approved.stderr).toContain('already approved');
    expect(JSON.parse(approved.stdout)).toMatchObject({ id });
  });

  it('an unknown loan request is exit 4; a bad id is exit 2 before anything is sent', async () => {
    await existing();
    expect((await run(['loan', 'new', '--resume', '99'], [])).exitCode).toBe(4);
    const before = front.sent().length;
    const bad = await run(['loan', 'new', '--resume', 'abc'], []);
    expect(bad.exitCode).toBe(2);
    expect(front.sent()).toHaveLength(before);
  });
});

describe('loan new without a terminal', () => {
  it('is exit 2 pointing at the verbs (no TTY, --no-input, or CI)', async () => {
    const runs = [
      run(['loan', 'new'], [], { tty: false }),
      run(['--no-input', 'loan', 'new'], []),
      run(['loan', 'new'], [], { env: { CI: 'true' } }),
    ];
    for (const { exitCode, stderr } of await Promise.all(runs)) {
      expect(exitCode).toBe(2);
      expect(stderr).toMatch(/terminal.*loanctl loan create --user EMAIL --amount N --purpose TEXT/s);
    }
    expect(front.sent()).toEqual([]);
  });
});

describe('loan new with nothing configured (fresh from the demo)', () => {
  const nothing = { LOANCTL_PRODUCT_ID: undefined, LOANCTL_BASE_URL: undefined, LOANCTL_API_KEY: undefined };

  it('with no profile at all, the missing product hint offers the sandbox and the command for after it', async () => {
    const { exitCode, stderr } = await run(['loan', 'new'], [], { env: nothing });
    expect(exitCode).toBe(2);
    expect(stderr).toContain('Missing --product: loan commands need a loan product id.');
    expect(stderr).toMatch(
      /profile add NAME --base-url URL --product-id N; or try the local sandbox: loanctl sandbox start \(then, in another terminal, loanctl --profile sandbox loan new\)\n/,
    );
    expect(front.sent()).toEqual([]);
  });

  it('not when a profile exists, or when the API is given by the environment', async () => {
    const withEnv = await run(['loan', 'new'], [], {
      env: { ...nothing, LOANCTL_BASE_URL: 'https://api.example.com' },
    });
    writeProfile('prod', { baseUrl: 'https://api.example.com', apiKey: 'k' }, { env: sandbox.env });
    const withProfile = await run(['loan', 'new'], [], { env: nothing });
    for (const { exitCode, stderr } of [withProfile, withEnv]) {
      expect(exitCode).toBe(2);
      expect(stderr).toMatch(/^loanctl: Missing --product/);
      expect(stderr).not.toContain('sandbox');
    }
  });
});

describe('choose without a select prompt', () => {
  it('falls back to a numbered list typed as text, refusing disabled and out-of-range numbers', async () => {
    const { prompter, asked } = scripted(
      [
        [/Pick one/, '9'],
        [/Pick one/, '2'],
        [/Pick one/, '3'],
      ],
      { select: false },
    );
    const value = await choose(prompter, 'Pick one', [
      { value: 'a', name: 'Apples' },
      { value: 'b', name: 'Bananas', disabled: 'sold out' },
      { value: 'c', name: 'Cherries' },
    ]);
    expect(value).toBe('c');
    expect(asked[0]?.message).toContain('2) Bananas (sold out)');
    expect(asked.filter((entry) => entry.refused).map((entry) => entry.refused)).toEqual([
      'Type a number from 1 to 3.',
      'Bananas: sold out.',
    ]);
  });
});

describe('user create and loan create on a terminal ask for just the missing values', () => {
  it('user create asks for the missing fields (checked as typed), then the password', async () => {
    const { exitCode, asked, remaining } = await run(
      ['user', 'create', '--firstname', 'Ada', '--email', 'ada@example.com', '--gender', 'female'],
      [
        [/last name/, 'Obi'],
        [/phone/, '12'],
        [/phone/, '08012345678'],
        [/password/, 'pw'],
      ],
    );
    expect(exitCode).toBe(0);
    expect(remaining).toEqual([]);
    expect(asked.map((entry) => entry.message)).toEqual([
      "Borrower's last name",
      "Borrower's phone",
      "Borrower's phone",
      "Borrower's password:",
    ]);
    expect(asked[1]?.refused).toMatch(/^Borrower's phone must be a Nigerian phone number/);
    expect(sentTo('createUser')[0]?.body).toEqual({
      firstname: 'Ada',
      lastname: 'Obi',
      email: 'ada@example.com',
      phone: '+2348012345678',
      gender: 'female',
      password: 'pw',
    });
  });

  it('loan create asks for the borrower, amount and purpose that were not given', async () => {
    const userId = await seedBorrower();
    const { exitCode, remaining } = await run(
      ['loan', 'create', '--purpose', 'Stock'],
      [
        [/Borrower \(user id or e-mail\)/, 'ada'],
        [/Borrower/, 'ada@example.com'],
        [/Amount requested/, '5e3'],
        [/Amount requested/, '5000'],
      ],
    );
    expect(exitCode).toBe(0);
    expect(remaining).toEqual([]);
    expect(keys()).toEqual(['listUsers', 'createLoanRequest']);
    expect(front.sent()[1]).toMatchObject({
      params: { user_id: String(userId) },
      body: { amount: 5000, purpose: 'Stock' },
    });
  });

  it('without a terminal they are exit 2 naming every missing flag, and ask nothing', async () => {
    const off = { tty: false };
    // The password is read after the fields, but its flag is named with them: one run tells all.
    const user = await run(['user', 'create', '--firstname', 'Ada'], [], off);
    expect(user.exitCode).toBe(2);
    expect(user.stderr).toMatch(
      /^loanctl: Missing --lastname, --email, --phone, --gender, --password-stdin\.[^\n]*--password-stdin/,
    );
    // With the password coming (stdin, or --data), only the fields are named.
    const fromStdin = await run(['user', 'create', '--firstname', 'Ada', '--password-stdin'], [], off);
    expect(fromStdin.stderr).toMatch(/^loanctl: Missing --lastname, --email, --phone, --gender\.\s/);
    const fromData = await run(
      ['user', 'create', '--firstname', 'Ada', '--data', '{"password": "pw", "phone": "08012345678"}'],
      [],
      off,
    );
    expect(fromData.stderr).toMatch(/^loanctl: Missing --lastname, --email, --gender\.\s/);

    const loan = await run(['--no-input', 'loan', 'create', '--purpose', 'x'], []);
    expect(loan.exitCode).toBe(2);
    expect(loan.stderr).toMatch(/^loanctl: Missing --user, --amount:/);
    expect(front.sent()).toEqual([]);
  });

  it('without a terminal a missing product is named with every other missing flag', async () => {
    const noProduct = { tty: false, env: { LOANCTL_PRODUCT_ID: undefined } };
    const one = await run(['loan', 'create', '--user', '1'], [], noProduct);
    expect(one.stderr).toMatch(
      /^loanctl: Missing --product, --amount, --purpose: loan commands need a loan product id\.\s/,
    );
    const all = await run(['loan', 'create'], [], noProduct);
    expect(all.stderr).toMatch(/^loanctl: Missing --product, --user, --amount, --purpose:/);
    const onlyProduct = await run(
      ['loan', 'create', '--user', '1', '--amount', '100', '--purpose', 'x'],
      [],
      noProduct,
    );
    expect(onlyProduct.stderr).toMatch(/^loanctl: Missing --product: /);
    for (const { exitCode } of [one, all, onlyProduct]) expect(exitCode).toBe(2);
    // On a terminal the product is still checked before any question is asked.
    const terminal = await run(['loan', 'create'], [], { env: { LOANCTL_PRODUCT_ID: undefined } });
    expect(terminal.stderr).toMatch(/^loanctl: Missing --product: /);
    expect(terminal.asked).toEqual([]);
    expect(front.sent()).toEqual([]);
  });
});

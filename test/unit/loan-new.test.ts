/**
 * `loan new`'s logic with a scripted prompter and a fake API that keeps state: the requests sent
 * and their order, answers refused with the reason and asked again, Ctrl-C at a prompt and while a
 * request is out (exit 130, what was created, the --resume command), and --resume offering only
 * the steps that remain. Also `user create` / `loan create` asking for just the missing flags.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runLoanCreate } from '../../src/commands/loan/create.js';
import { runLoanNew } from '../../src/commands/loan/new.js';
import { runUserCreate } from '../../src/commands/user/create.js';
import { writeProfile } from '../../src/config/store.js';
import { ZERO_TIMESTAMP } from '../../src/contract/schemas.js';
import { createDeps, type Deps, type Env, type GlobalOptions } from '../../src/deps.js';
import { ApiError, CancelledError, ExitCode, UsageError } from '../../src/errors.js';
import type { ApiClient, CallOptions } from '../../src/http/client.js';
import { main } from '../../src/main.js';
import { choose } from '../../src/prompts/ask.js';
import type { Choice, Prompter } from '../../src/prompts/prompter.js';
import { apiResult } from '../helpers/api-result.js';
import { type FakeIo, fakeIo } from '../helpers/fake-io.js';

// ---------------------------------------------------------------------------------------------
// A scripted prompter: each question must match the next entry; an answer its `validate` refuses
// is recorded with the reason and the same question takes the next entry (as inquirer re-asks).

const CTRL_C = Symbol('Ctrl-C');
type Answer = string | boolean | typeof CTRL_C;

class ExitPromptError extends Error {
  override name = 'ExitPromptError';
}

interface Asked {
  kind: 'input' | 'password' | 'confirm' | 'select';
  message: string;
  answer?: Answer;
  /** The reason `validate` gave, when the answer was refused. */
  refused?: string;
  /** The menu's choices (select). */
  choices?: Array<{ value: unknown; name: string; disabled?: string }>;
}

function scripted(script: Array<[RegExp, Answer]>, options: { select?: boolean } = {}) {
  const asked: Asked[] = [];
  const next = (kind: Asked['kind'], message: string): Answer => {
    const entry = script.shift();
    if (!entry) throw new Error(`no answer scripted for ${kind} "${message}"`);
    const [pattern, answer] = entry;
    if (!pattern.test(message)) throw new Error(`expected a question matching ${pattern}, got ${kind} "${message}"`);
    if (answer === CTRL_C) {
      asked.push({ kind, message, answer });
      throw new ExitPromptError('User force closed the prompt with SIGINT');
    }
    return answer;
  };
  const text =
    (kind: 'input' | 'password') =>
    async (message: string, opts: { default?: string; validate?: (value: string) => true | string } = {}) => {
      for (;;) {
        const answer = next(kind, message);
        const raw = answer === '' && opts.default !== undefined ? opts.default : String(answer);
        const verdict = opts.validate ? opts.validate(raw) : true;
        if (verdict === true) {
          asked.push({ kind, message, answer: raw });
          return raw;
        }
        asked.push({ kind, message, answer: raw, refused: verdict });
      }
    };
  const prompter: Prompter = {
    input: text('input'),
    password: text('password'),
    confirm: async (message) => {
      const answer = next('confirm', message);
      asked.push({ kind: 'confirm', message, answer });
      return answer === true;
    },
  };
  if (options.select !== false) {
    prompter.select = async <T>(message: string, choices: readonly Choice<T>[]) => {
      const answer = next('select', message);
      const choice = choices.find((candidate) => candidate.value === answer);
      if (!choice) throw new Error(`"${String(answer)}" is not a choice of "${message}"`);
      if (choice.disabled) throw new Error(`"${String(answer)}" is disabled: ${choice.disabled}`);
      asked.push({ kind: 'select', message, answer, choices: choices.map((c) => ({ ...c })) });
      return choice.value;
    };
  }
  return { prompter, asked, remaining: script };
}

// ---------------------------------------------------------------------------------------------
// A fake API with just enough state: users, one product's loan requests and what they carry.

interface Sent {
  key: string;
  params?: Record<string, string | number> | undefined;
  query?: unknown;
  body?: unknown;
  productId?: unknown;
}

function fakeApi() {
  const sent: Sent[] = [];
  const users: Array<Record<string, unknown> & { id: number; email: string }> = [];
  const loans = new Map<number, Record<string, unknown> & { id: number }>();
  const banks = new Map<number, unknown[]>();
  const guarantors = new Map<number, Array<{ id: number }>>();
  const employment = new Map<number, unknown>();
  let nextId = 100;
  /** Handlers that replace the default one, e.g. to hang or to fail. */
  const override: Record<string, (options: CallOptions) => Promise<unknown>> = {};

  const addUser = (fields: { firstname: string; lastname: string; email: string; phone?: string }) => {
    const user = { id: 5 + users.length, org_id: 1, gender: 'female', phone: '+2348012345678', ...fields };
    users.push(user);
    return user;
  };
  const addLoan = (userId: number, fields: Record<string, unknown> = {}) => {
    const user = users.find((candidate) => candidate.id === userId);
    const loan = {
      id: 12 + loans.size,
      user_id: userId,
      org_id: 1,
      product_id: 7,
      reference: `LR-${12 + loans.size}`,
      fullname: user ? `${user.firstname} ${user.lastname}` : 'Someone',
      amount: 50000,
      purpose: 'Stock',
      status: 'saved',
      lender_status: 'saved',
      user_status: 'saved',
      submitted_at: ZERO_TIMESTAMP,
      approved_at: ZERO_TIMESTAMP,
      ...fields,
    };
    loans.set(loan.id, loan);
    return loan;
  };
  const loanOf = (options: CallOptions) => {
    const loan = loans.get(Number(options.params?.id));
    if (!loan) throw new Error(`no loan ${options.params?.id}`);
    return loan;
  };

  const handlers: Record<string, (options: CallOptions) => unknown> = {
    listUsers: (options) => ((options.query as { pages: number }).pages === 1 ? users : []),
    userExists: (options) => {
      const email = String((options.query as { email: string }).email).toLowerCase();
      return apiResult(users.some((user) => String(user.email).toLowerCase() === email));
    },
    createUser: (options) => {
      const body = options.body as { firstname: string; lastname: string; email: string; phone: string };
      addUser(body);
      return apiResult({ ...body, password: undefined, reference: 'USR-1' });
    },
    createLoanRequest: (options) => addLoan(Number(options.params?.user_id), options.body as Record<string, unknown>),
    listLoanRequests: (options) => {
      const cursor = Number((options.query as { cursor: number }).cursor);
      const found = [...loans.values()].filter((loan) => loan.id > cursor).slice(0, 1);
      return { loan_requests: found, cursor: found[0]?.id ?? 0 };
    },
    addBankDetails: (options) => {
      const loan = loanOf(options);
      banks.set(loan.id, [...(banks.get(loan.id) ?? []), options.body]);
      loan.progress = 'bank_details';
      return apiResult(null, { data1: loan });
    },
    addGuarantor: (options) => {
      const loan = loanOf(options);
      const list = [...(guarantors.get(loan.id) ?? []), { id: nextId++, ...(options.body as object) }];
      guarantors.set(loan.id, list);
      loan.progress = 'guarantor';
      return apiResult(list);
    },
    addEmployment: (options) => {
      const loan = loanOf(options);
      if (employment.has(loan.id)) {
        throw new ApiError('Employment information was already added to this loan request.', { httpStatus: 500 });
      }
      const record = { id: nextId++, ...(options.body as object) };
      employment.set(loan.id, record);
      loan.progress = 'employment';
      return record;
    },
    addBusinessInfo: (options) => ({ id: nextId++, ...(options.body as object) }),
    uploadDocument: (options) => [{ id: nextId++, ...(options.body as object) }],
    submitLoanRequest: (options) => {
      const loan = loanOf(options);
      Object.assign(loan, { user_status: 'submitted', status: 'pending', progress: 'submitted' });
      return apiResult(null, { data1: loan });
    },
    approveLoanRequest: (options) => {
      const loan = loanOf(options);
      Object.assign(loan, { lender_status: 'approved', progress: 'approved', terms: options.body });
      return loan;
    },
    getProgress: (options) => loanOf(options).progress ?? 'new',
    getBankDetails: (options) => banks.get(loanOf(options).id) ?? [],
    getGuarantors: (options) => guarantors.get(loanOf(options).id) ?? [],
    getEmployment: (options) => employment.get(loanOf(options).id) ?? null,
  };

  const client = {
    settings: {} as ApiClient['settings'],
    async call(key: string, options: CallOptions = {}) {
      sent.push({
        key,
        params: options.params,
        query: options.query,
        body: options.body,
        productId: options.productId,
      });
      const handler = override[key] ?? handlers[key];
      if (!handler) throw new Error(`unexpected call ${key}`);
      const value = await handler(options);
      return value && typeof value === 'object' && 'rawBody' in value ? value : apiResult(value);
    },
    request: async () => {
      throw new Error('unexpected raw request');
    },
    close: async () => {},
  } as unknown as ApiClient;

  return { client, sent, users, loans, banks, guarantors, employment, override, addUser, addLoan };
}

type Api = ReturnType<typeof fakeApi>;

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loanctl-new-'));
  tempDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

function setup(
  script: Array<[RegExp, Answer]>,
  options: { api?: Api; tty?: boolean; env?: Env; globals?: GlobalOptions; select?: boolean } = {},
): { deps: Deps; io: FakeIo; api: Api; asked: Asked[]; remaining: Array<[RegExp, Answer]> } {
  const api = options.api ?? fakeApi();
  const io = fakeIo({ tty: options.tty ?? true });
  const { prompter, asked, remaining } = scripted(script, { select: options.select ?? true });
  const deps = createDeps({
    io,
    env: {
      LOANCTL_CONFIG_DIR: tempDir(),
      LOANCTL_PRODUCT_ID: '7',
      LOANCTL_API_KEY: 'k',
      LOANCTL_BASE_URL: 'http://127.0.0.1:1',
      ...options.env,
    },
    globals: { output: 'json', ...options.globals },
    now: () => new Date('2025-01-01T10:00:00Z'),
    prompter,
  });
  deps.api = async () => api.client;
  return { deps, io, api, asked, remaining };
}

const keys = (api: Api) => api.sent.map((call) => call.key);

/** Answers for a new borrower whose phone is first typed wrong. */
const NEW_BORROWER: Array<[RegExp, Answer]> = [
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

const BANK: Array<[RegExp, Answer]> = [
  [/What next\?/, 'bank'],
  [/Bank code/, '058'],
  [/Account name/, ''], // takes the default: the borrower's name
  [/Account number/, '0123456789'],
  [/Bank name/, ''],
];

const GUARANTOR = (firstname: string, email: string): Array<[RegExp, Answer]> => [
  [/Guarantor's first name/, firstname],
  [/Guarantor's last name/, 'Eze'],
  [/Guarantor's gender/, 'male'],
  [/Relationship/, 'brother'],
  [/Guarantor's e-mail/, email],
  [/Guarantor's phone/, '08055555555'],
];

describe('loan new: the whole flow', () => {
  it('creates the borrower, the loan request, sends each step as answered, submits and approves after the preview', async () => {
    const { deps, io, api, asked, remaining } = setup([
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
      [/Submit loan request 12 now\?/, true],
      [/Approve loan request 12 now\?/, true],
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
      [/Approve loan request 12: 45,000\.00 at 5% a month \(simple interest\) over 3 months, repaid weekly\?/, true],
    ]);
    await runLoanNew({}, deps);
    expect(remaining).toEqual([]);

    // The requests, in order: each step went out as soon as it was answered.
    // The borrower is looked up (it does not exist), created, then found newest first: page 1, and
    // page 2 (empty) to know page 1 is the last.
    expect(keys(api)).toEqual([
      'userExists',
      'createUser',
      'userExists',
      'listUsers',
      'listUsers',
      'createLoanRequest',
      'addBankDetails',
      'addGuarantor',
      'addGuarantor',
      'submitLoanRequest',
      'approveLoanRequest',
    ]);
    expect(
      api.sent.every((call) => ['userExists', 'listUsers', 'createUser'].includes(call.key) || call.productId === 7),
    ).toBe(true);
    expect(api.sent[1]?.body).toEqual({
      firstname: 'Ada',
      lastname: 'Obi',
      email: 'ada@example.com',
      phone: '+2348012345678',
      gender: 'female',
      password: 's3cret pass',
    });
    expect(api.sent[5]).toMatchObject({ params: { user_id: 5 }, body: { amount: 50000, purpose: 'Shop stock' } });
    expect(api.sent[6]).toMatchObject({
      params: { id: 12 },
      body: { code: '058', account_name: 'Ada Obi', account_number: '0123456789' },
    });
    expect(api.sent[6]?.body).not.toHaveProperty('bank_name');
    expect(api.sent[7]?.body).toEqual({
      firstname: 'Chi',
      lastname: 'Eze',
      gender: 'male',
      relationship: 'brother',
      email: 'chi@example.com',
      phone: '+2348055555555',
    });
    expect(api.sent[10]).toMatchObject({
      params: { id: 12 },
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
    const refused = asked.filter((entry) => entry.refused).map((entry) => entry.refused);
    expect(refused).toEqual([
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
    const stderr = io.stderr.text();
    expect(stderr).toMatch(/Review: loan request 12 \(LR-12\)/);
    expect(stderr).toMatch(/Borrower\s+Ada Obi <ada@example.com> \(user 5\)/);
    expect(stderr).toMatch(/Bank details\s+058 · Ada Obi · 0123456789/);
    expect(stderr).toMatch(/Guarantors\s+Chi Eze \(brother\) · \+2348055555555\n\s+Obi Eze \(brother\)/);
    expect(stderr).toMatch(/Employment\s+—/);
    expect(stderr).toContain('Loan of 45,000.00 at 5% a month (simple interest) over 3 months, repaid weekly.');
    expect(stderr).toMatch(/12 instalments; the last is due 2025-04-01 Tue/);
    expect(stderr.indexOf('instalments;')).toBeLessThan(stderr.indexOf('Approved loan request 12'));

    // The approved loan request on stdout (JSON here: stdout is not a terminal).
    expect(JSON.parse(io.stdout.text())).toMatchObject({ id: 12, lender_status: 'approved' });
  });

  it('finds an existing borrower by e-mail; "finish later" sends nothing more and says how to continue', async () => {
    const api = fakeApi();
    api.addUser({ firstname: 'Ada', lastname: 'Obi', email: 'Ada@Example.com' });
    const { deps, io, asked } = setup(
      [
        [/Borrower's e-mail/, 'ada@example.com'],
        [/Amount requested/, '1250.50'],
        [/Purpose/, 'Freezer'],
        [/What next\?/, 'later'],
      ],
      { api },
    );
    await runLoanNew({ product: '7' }, deps);
    expect(keys(api)).toEqual(['userExists', 'listUsers', 'listUsers', 'createLoanRequest']);
    expect(api.sent.at(-1)).toMatchObject({ params: { user_id: 5 }, body: { amount: 1250.5, purpose: 'Freezer' } });
    // Nothing added yet: review is offered but cannot be taken.
    const menu = asked.find((entry) => entry.kind === 'select')?.choices ?? [];
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
    expect(io.stderr.text()).toContain('Found Ada Obi (user 5');
    expect(io.stderr.text()).toContain('Continue with: loanctl loan new --resume 12 --product 7');
  });

  it('declining to create the borrower asks for the e-mail again', async () => {
    const api = fakeApi();
    api.addUser({ firstname: 'Bola', lastname: 'Ade', email: 'bola@example.com' });
    const { deps, remaining } = setup(
      [
        [/Borrower's e-mail/, 'typo@example.com'],
        [/Create one\?/, false],
        [/Borrower's e-mail/, 'bola@example.com'],
        [/Amount requested/, '100'],
        [/Purpose/, 'x'],
        [/What next\?/, 'later'],
      ],
      { api },
    );
    await runLoanNew({}, deps);
    expect(remaining).toEqual([]);
    // typo@… does not exist (one question); bola@… is on page 1 (page 2, empty, says it is the last).
    expect(keys(api)).toEqual(['userExists', 'userExists', 'listUsers', 'listUsers', 'createLoanRequest']);
  });

  it('business information: org id from the loan request, registration number only when registered; documents need an http(s) URL', async () => {
    const api = fakeApi();
    api.addUser({ firstname: 'Ada', lastname: 'Obi', email: 'ada@example.com' });
    const { deps, asked } = setup(
      [
        [/Borrower's e-mail/, 'ada@example.com'],
        [/Amount requested/, '100'],
        [/Purpose/, 'x'],
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
        [/Number of employees/, '12'],
        [/Average monthly income/, ''],
        [/What next\?/, 'document'],
        [/Document type/, 'passport'],
        [/Document title/, 'Passport'],
        [/Number on the document/, 'A1'],
        [/URL/, 'ftp://files.example.com/a.jpg'],
        [/URL/, 'https://files.example.com/a.jpg'],
        [/Add another document\?/, false],
        [/What next\?/, 'later'],
      ],
      { api },
    );
    await runLoanNew({}, deps);
    expect(api.sent.find((call) => call.key === 'addBusinessInfo')?.body).toEqual({
      name: 'Ada Stores',
      org_id: 1,
      role: 'owner',
      industry: 'retail',
      description: 'Groceries',
      registered: true,
      registration_number: 'RC1',
      established_on: '2019-03-01',
      number_of_employees: '12',
    });
    expect(api.sent.find((call) => call.key === 'uploadDocument')?.body).toMatchObject({
      document_url: 'https://files.example.com/a.jpg',
    });
    expect(asked.filter((entry) => entry.refused).map((entry) => entry.refused)).toEqual([
      'Established on must be a real date written yyyy-mm-dd (got "2019-02-30").',
      'URL of the document\'s image must be an http or https URL (got "ftp://files.example.com/a.jpg").',
    ]);
    // Business information is done once: the next menu no longer offers it; documents repeat.
    const lastMenu = asked.filter((entry) => entry.kind === 'select').at(-1)?.choices ?? [];
    expect(lastMenu.map((choice) => choice.name)).toEqual([
      'Add bank details',
      'Add employment',
      'Add a guarantor',
      'Add another document (1 so far)',
      'Review and submit',
      'Finish later (the loan request stays saved)',
    ]);
  });

  it('a step the API refuses is reported and the menu comes back; nothing is lost', async () => {
    const api = fakeApi();
    api.addUser({ firstname: 'Ada', lastname: 'Obi', email: 'ada@example.com' });
    api.override.addBankDetails = async () => {
      throw new ApiError('Bank code 999 is not known.', { httpStatus: 400 });
    };
    const { deps, io } = setup(
      [
        [/Borrower's e-mail/, 'ada@example.com'],
        [/Amount requested/, '100'],
        [/Purpose/, 'x'],
        [/What next\?/, 'bank'],
        [/Bank code/, '999'],
        [/Account name/, 'Ada Obi'],
        [/Account number/, ''],
        [/Bank name/, ''],
        [/What next\?/, 'later'],
      ],
      { api },
    );
    await runLoanNew({}, deps);
    expect(io.stderr.text()).toContain('loanctl: Bank code 999 is not known.');
    expect(io.stderr.text()).toContain('Nothing was added.');
  });

  it('declining the approval leaves the loan request submitted (exit 0) and says how to approve later', async () => {
    const api = fakeApi();
    api.addUser({ firstname: 'Ada', lastname: 'Obi', email: 'ada@example.com' });
    const { deps, io } = setup(
      [
        [/Borrower's e-mail/, 'ada@example.com'],
        [/Amount requested/, '100'],
        [/Purpose/, 'x'],
        ...BANK,
        [/What next\?/, 'review'],
        [/Submit/, true],
        [/Approve loan request 12 now\?/, false],
      ],
      { api },
    );
    await runLoanNew({}, deps);
    expect(keys(api).at(-1)).toBe('submitLoanRequest');
    expect(io.stderr.text()).toContain('Not approved. When ready: loanctl loan approve 12 --preview');
    expect(JSON.parse(io.stdout.text())).toMatchObject({ id: 12, user_status: 'submitted' });
  });
});

describe('loan new: Ctrl-C', () => {
  it('mid-way: exit 130, what was created (with ids) and the --resume command', async () => {
    const { deps, io, api } = setup([
      ...NEW_BORROWER,
      [/Amount requested/, '50000'],
      [/Purpose/, 'Shop stock'],
      ...BANK,
      [/What next\?/, 'guarantor'],
      [/Guarantor's first name/, 'Chi'],
      [/Guarantor's last name/, CTRL_C],
    ]);
    const error = await runLoanNew({}, deps).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).exitCode).toBe(ExitCode.cancelled);
    expect((error as CancelledError).hint).toBe('Continue with: loanctl loan new --resume 12');
    expect(keys(api)).toEqual([
      'userExists',
      'createUser',
      'userExists',
      'listUsers',
      'listUsers',
      'createLoanRequest',
      'addBankDetails',
    ]);
    expect(io.stderr.text()).toContain(
      [
        'Stopped. Created so far:',
        '  user 5 (ada@example.com)',
        '  loan request 12 (50,000.00, Shop stock)',
        '  bank details: 058 · Ada Obi · 0123456789',
      ].join('\n'),
    );
  });

  it('through main: exit code 130 and one line naming the command that continues', async () => {
    const { deps, io } = setup([
      [/Borrower's e-mail/, 'ada@example.com'],
      [/Create one\?/, CTRL_C],
    ]);
    const code = await main(['loan', 'new'], deps);
    expect(code).toBe(130);
    expect(io.stderr.text()).toContain('Nothing was created.');
    expect(io.stderr.text().trim().split('\n').at(-1)).toBe('loanctl: Cancelled.');
    const later = setup([...NEW_BORROWER, [/Amount requested/, CTRL_C]]);
    expect(await main(['loan', 'new'], later.deps)).toBe(130);
    expect(later.io.stderr.text()).toContain('  user 5 (ada@example.com)');
    expect(later.io.stderr.text()).toContain(
      'loanctl: Cancelled. Start again with: loanctl loan new (the borrower ada@example.com is there now)',
    );
  });

  it('while a request is out (SIGINT, no prompt open): stops at once with the summary', async () => {
    const api = fakeApi();
    api.addUser({ firstname: 'Ada', lastname: 'Obi', email: 'ada@example.com' });
    const signals = new EventEmitter();
    let sendStarted!: () => void;
    const started = new Promise<void>((resolve) => {
      sendStarted = resolve;
    });
    api.override.addEmployment = () => {
      sendStarted();
      return new Promise(() => {}); // never answers
    };
    const { deps, io } = setup(
      [
        [/Borrower's e-mail/, 'ada@example.com'],
        [/Amount requested/, '100'],
        [/Purpose/, 'x'],
        [/What next\?/, 'employment'],
        [/Employment status/, 'employed'],
        [/Employer's name/, 'Acme'],
        [/Employer's address/, '1 Marina'],
        [/Position/, 'Cashier'],
        [/Monthly salary/, '150,000'],
        [/Manager's name/, 'Bola'],
        [/Manager's phone/, '08098765432'],
        [/Manager's e-mail/, 'bola@acme.ng'],
      ],
      { api },
    );
    const running = runLoanNew({}, deps, { signals }).catch((caught: unknown) => caught);
    await started;
    expect(signals.listenerCount('SIGINT')).toBe(1);
    signals.emit('SIGINT');
    const error = await running;
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).hint).toBe('Continue with: loanctl loan new --resume 12');
    expect(io.stderr.text()).toContain(
      'Ctrl-C came while employment information for loan request 12 was being sent: it may have gone through, and then it is not listed above. Check with: loanctl loan show 12\n',
    );
    expect(api.sent.at(-1)?.body).toMatchObject({ salary: 150000, manager_phone: '+2348098765432' });
    expect(signals.listenerCount('SIGINT')).toBe(0);
  });

  /** Runs the flow until `key` is sent (it never answers), then presses Ctrl-C. */
  async function interruptDuring(
    key: string,
    script: Array<[RegExp, Answer]>,
    options: { product?: string; borrowerExists?: boolean } = {},
  ) {
    const api = fakeApi();
    if (options.borrowerExists !== false) api.addUser({ firstname: 'Ada', lastname: 'Obi', email: 'ada@example.com' });
    const signals = new EventEmitter();
    let sendStarted!: () => void;
    const started = new Promise<void>((resolve) => {
      sendStarted = resolve;
    });
    api.override[key] = () => {
      sendStarted();
      return new Promise(() => {});
    };
    const { deps, io } = setup(script, { api });
    const running = runLoanNew({ product: options.product }, deps, { signals }).catch((caught: unknown) => caught);
    await started;
    signals.emit('SIGINT');
    return { error: await running, stderr: io.stderr.text() };
  }

  it('while the loan request is being created: says it may exist now and names the command that shows it', async () => {
    const { error, stderr } = await interruptDuring(
      'createLoanRequest',
      [
        [/Borrower's e-mail/, 'ada@example.com'],
        [/Amount requested/, '100'],
        [/Purpose/, 'x'],
      ],
      { product: '7' },
    );
    expect((error as CancelledError).exitCode).toBe(ExitCode.cancelled);
    expect(stderr).toContain('Nothing was created.');
    expect(stderr).toContain(
      'Ctrl-C came while the new loan request was being sent: it may have gone through, and then it is not listed above. Check with: loanctl loan list --limit 1 --product 7\n',
    );
  });

  it('while the borrower is being created: names `user exists` for that e-mail', async () => {
    const { stderr } = await interruptDuring('createUser', NEW_BORROWER, { borrowerExists: false });
    expect(stderr).toContain('Check with: loanctl user exists --email ada@example.com\n');
  });

  it('while only a lookup is out: nothing to check, so no note and no "command below" without one', async () => {
    const { error, stderr } = await interruptDuring('listUsers', [[/Borrower's e-mail/, 'ada@example.com']]);
    expect((error as CancelledError).hint).toBeUndefined();
    expect(stderr).toBe(
      'A new loan request, step by step. Ctrl-C stops at any point; what was sent stays.\n\n\nNothing was created.\n',
    );
    expect(stderr).not.toContain('Ctrl-C came while');
    expect(stderr).not.toContain('command below');
  });
});

describe('loan new --resume', () => {
  function existing() {
    const api = fakeApi();
    const user = api.addUser({ firstname: 'Ada', lastname: 'Obi', email: 'ada@example.com' });
    api.addLoan(user.id); // 12, another loan request
    const loan = api.addLoan(user.id, { amount: 80000, purpose: 'Freezer', progress: 'employment' }); // 13
    api.banks.set(13, [{ id: 1, code: '058', account_name: 'Ada Obi', account_number: '', bank_name: '' }]);
    api.employment.set(13, { id: 2, status: 'employed', company_name: 'Acme', position: 'Cashier' });
    api.guarantors.set(13, [
      { id: 3, firstname: 'Chi', lastname: 'Eze', relationship: 'brother', phone: '+234805' } as never,
    ]);
    return { api, loan };
  }

  it('reads progress, bank details, guarantors and employment, shows them, and offers only the steps that remain', async () => {
    const { api } = existing();
    const { deps, io, asked } = setup(
      [
        [/What next\?/, 'business'],
        [/Business name/, CTRL_C],
      ],
      { api },
    );
    const error = await runLoanNew({ resume: '13' }, deps).catch((caught: unknown) => caught);
    expect(keys(api)).toEqual(['listLoanRequests', 'getProgress', 'getBankDetails', 'getGuarantors', 'getEmployment']);
    expect(api.sent[0]).toMatchObject({ productId: 7, query: { direction: 'ASC', cursor: 12, limit: 1 } });
    const menu = asked.find((entry) => entry.kind === 'select')?.choices ?? [];
    expect(menu.map((choice) => choice.value)).toEqual(['business', 'guarantor', 'document', 'review', 'later']);
    expect(menu.find((choice) => choice.value === 'guarantor')?.name).toBe('Add another guarantor (1 so far)');
    expect(menu.find((choice) => choice.value === 'review')?.disabled).toBeUndefined();
    const stderr = io.stderr.text();
    expect(stderr).toContain('Loan request 13 (LR-13) for Ada Obi: 80,000.00, Freezer.');
    expect(stderr).toContain('Progress: employment;');
    expect(stderr).toMatch(/Bank details\s+058 · Ada Obi/);
    expect(stderr).toMatch(/Employment\s+Cashier at Acme · employed/);
    expect(stderr).toMatch(/Guarantors\s+Chi Eze \(brother\)/);
    expect(stderr).toContain('Still to add, if you want: business information, guarantor, document.');
    // Ctrl-C on a resumed loan request: nothing new was created, the same command continues.
    expect((error as CancelledError).exitCode).toBe(130);
    expect((error as CancelledError).hint).toBe('Continue with: loanctl loan new --resume 13');
    expect(stderr).toContain('Nothing new was sent in this run.');
  });

  it('the progress string decides nothing: what is attached comes from the records, the state from the loan request', async () => {
    // The spec never defines the markers' values: whatever the real service says, even a marker
    // that reads like a state, changes neither what is shown nor what is offered.
    for (const progress of ['approved', 'submitted', 'business_information', 'document', 'STAGE_3', '']) {
      const { api, loan } = existing();
      Object.assign(loan, { progress });
      const { deps, io, asked } = setup([[/What next\?/, 'later']], { api });
      await runLoanNew({ resume: '13' }, deps);
      const stderr = io.stderr.text();
      expect(stderr, progress).not.toContain('already approved');
      const menu = asked.find((entry) => entry.kind === 'select')?.choices ?? [];
      expect(menu.map((choice) => choice.value)).toEqual(['business', 'guarantor', 'document', 'review', 'later']);
      // Business information and documents are not shown back: unknown, never "added".
      expect(stderr).toMatch(/Business information\s+not known \(the API does not show it back\)/);
      expect(stderr).toMatch(/Documents\s+not known \(the API does not show it back\)/);
      expect(stderr).toMatch(/Bank details\s+058 · Ada Obi/);
      expect(stderr).not.toContain('Approve loan request 13 now?');
      if (progress !== '') expect(stderr).toContain(`Progress: ${progress};`);
    }
  });

  it('records decide what is attached whatever the progress says: none found, every step offered', async () => {
    const api = fakeApi();
    const user = api.addUser({ firstname: 'Ada', lastname: 'Obi', email: 'ada@example.com' });
    api.addLoan(user.id, { progress: 'employment' }); // 12: says employment, has nothing
    const { deps, io, asked } = setup([[/What next\?/, 'later']], { api });
    await runLoanNew({ resume: '12' }, deps);
    const menu = asked.find((entry) => entry.kind === 'select')?.choices ?? [];
    expect(menu.map((choice) => choice.value)).toEqual(
      expect.arrayContaining(['bank', 'employment', 'business', 'guarantor', 'document']),
    );
    expect(io.stderr.text()).toMatch(/Employment\s+—/);
  });

  it('submitted and approved are read from the loan request (status or its timestamps), not from progress', async () => {
    const { api, loan } = existing();
    // Submitted: only submitted_at says so (in the real service's nanosecond form).
    Object.assign(loan, { progress: 'STAGE_3', submitted_at: '2022-02-11T09:10:25.815412395+01:00' });
    const { deps } = setup([[/Approve loan request 13 now\?/, false]], { api });
    await runLoanNew({ resume: '13' }, deps);
    expect(keys(api)).not.toContain('submitLoanRequest');

    // Approved: only approved_at says so.
    Object.assign(loan, { approved_at: '2022-02-12T10:00:00.123456789+01:00' });
    const again = setup([], { api });
    await runLoanNew({ resume: '13' }, again.deps);
    expect(again.io.stderr.text()).toContain('already approved');
  });

  it('a submitted loan request goes straight to the approval question; an approved one has nothing left', async () => {
    const { api, loan } = existing();
    Object.assign(loan, { user_status: 'submitted', progress: 'submitted' });
    const { deps } = setup([[/Approve loan request 13 now\?/, false]], { api });
    await runLoanNew({ resume: '13' }, deps);
    expect(keys(api)).not.toContain('submitLoanRequest');

    Object.assign(loan, { lender_status: 'approved', progress: 'approved' });
    const again = setup([], { api });
    await runLoanNew({ resume: '13' }, again.deps);
    expect(again.io.stderr.text()).toContain('already approved');
    expect(JSON.parse(again.io.stdout.text())).toMatchObject({ id: 13 });
  });

  it('an unknown loan request is exit 4; a bad id is exit 2 before anything is sent', async () => {
    const { api } = existing();
    const { deps } = setup([], { api });
    await expect(runLoanNew({ resume: '99' }, deps)).rejects.toMatchObject({ exitCode: ExitCode.noAccess });
    const bad = setup([], { api: fakeApi() });
    await expect(runLoanNew({ resume: 'abc' }, bad.deps)).rejects.toMatchObject({ exitCode: ExitCode.usage });
    expect(bad.api.sent).toEqual([]);
  });
});

describe('loan new without a terminal', () => {
  it('is exit 2 pointing at the verbs (no TTY, --no-input, or CI)', async () => {
    for (const options of [{ tty: false }, { globals: { input: false } }, { env: { CI: 'true' } }]) {
      const { deps, api } = setup([], options);
      const error = await runLoanNew({}, deps).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(UsageError);
      expect(`${(error as UsageError).message} ${(error as UsageError).hint}`).toMatch(
        /needs|terminal.*loanctl loan create --user EMAIL --amount N --purpose TEXT/,
      );
      expect(api.sent).toEqual([]);
    }
  });
});

describe('loan new with nothing configured (fresh from the demo)', () => {
  const nothing = { LOANCTL_PRODUCT_ID: undefined, LOANCTL_BASE_URL: undefined, LOANCTL_API_KEY: undefined };

  it('with no profile at all, the missing product hint offers the sandbox and the command for after it', async () => {
    const { deps, api } = setup([], { env: nothing });
    const error = await runLoanNew({}, deps).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe('Missing --product: loan commands need a loan product id.');
    expect((error as UsageError).hint).toMatch(
      /profile add NAME --base-url URL --product-id N; or try the local sandbox: loanctl sandbox start \(then, in another terminal, loanctl --profile sandbox loan new\)$/,
    );
    expect(api.sent).toEqual([]);
  });

  it('not when a profile exists, or when the API is given by the environment', async () => {
    const withProfile = setup([], { env: nothing });
    writeProfile('prod', { baseUrl: 'https://api.example.com', apiKey: 'k' }, { env: withProfile.deps.env });
    const withEnv = setup([], { env: { ...nothing, LOANCTL_BASE_URL: 'https://api.example.com' } });
    for (const { deps } of [withProfile, withEnv]) {
      const error = await runLoanNew({}, deps).catch((caught: unknown) => caught);
      expect((error as UsageError).message).toMatch(/^Missing --product/);
      expect((error as UsageError).hint).not.toContain('sandbox');
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
    const { deps, api, asked, remaining } = setup([
      [/last name/, 'Obi'],
      [/phone/, '12'],
      [/phone/, '08012345678'],
      [/password/, 'pw'],
    ]);
    await runUserCreate({ firstname: 'Ada', email: 'ada@example.com', gender: 'female' }, deps);
    expect(remaining).toEqual([]);
    expect(asked.map((entry) => entry.message)).toEqual([
      "Borrower's last name",
      "Borrower's phone",
      "Borrower's phone",
      "Borrower's password:",
    ]);
    expect(asked[1]?.refused).toMatch(/^Borrower's phone must be a Nigerian phone number/);
    expect(api.sent[0]?.body).toEqual({
      firstname: 'Ada',
      lastname: 'Obi',
      email: 'ada@example.com',
      phone: '+2348012345678',
      gender: 'female',
      password: 'pw',
    });
  });

  it('loan create asks for the borrower, amount and purpose that were not given', async () => {
    const api = fakeApi();
    api.addUser({ firstname: 'Ada', lastname: 'Obi', email: 'ada@example.com' });
    const { deps, remaining } = setup(
      [
        [/Borrower \(user id or e-mail\)/, 'ada'],
        [/Borrower/, 'ada@example.com'],
        [/Amount requested/, '5e3'],
        [/Amount requested/, '5000'],
      ],
      { api },
    );
    await runLoanCreate({ purpose: 'Stock' }, deps);
    expect(remaining).toEqual([]);
    expect(keys(api)).toEqual(['userExists', 'listUsers', 'listUsers', 'createLoanRequest']);
    expect(api.sent.at(-1)).toMatchObject({ params: { user_id: 5 }, body: { amount: 5000, purpose: 'Stock' } });
  });

  it('without a terminal they are exit 2 naming every missing flag, and ask nothing', async () => {
    const user = setup([], { tty: false });
    // The password is read after the fields, but its flag is named with them: one run tells all.
    const userError = await runUserCreate({ firstname: 'Ada' }, user.deps).catch((caught: unknown) => caught);
    expect(userError).toBeInstanceOf(UsageError);
    expect((userError as UsageError).message).toBe('Missing --lastname, --email, --phone, --gender, --password-stdin.');
    expect((userError as UsageError).hint).toContain('--password-stdin');
    // With the password coming (stdin, or --data), only the fields are named.
    await expect(runUserCreate({ firstname: 'Ada', passwordStdin: true }, user.deps)).rejects.toThrow(
      /^Missing --lastname, --email, --phone, --gender\.$/,
    );
    await expect(
      runUserCreate({ firstname: 'Ada', data: '{"password": "pw", "phone": "08012345678"}' }, user.deps),
    ).rejects.toThrow(/^Missing --lastname, --email, --gender\.$/);
    expect(user.api.sent).toEqual([]);

    const loan = setup([], { globals: { input: false } });
    const error = await runLoanCreate({ purpose: 'x' }, loan.deps).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(ExitCode.usage);
    expect((error as UsageError).message).toMatch(/^Missing --user, --amount:/);
    expect(loan.api.sent).toEqual([]);
  });

  it('without a terminal a missing product is named with every other missing flag', async () => {
    const noProduct = { tty: false, env: { LOANCTL_PRODUCT_ID: undefined } };
    const one = setup([], noProduct);
    await expect(runLoanCreate({ user: '1' }, one.deps)).rejects.toThrow(
      /^Missing --product, --amount, --purpose: loan commands need a loan product id\.$/,
    );
    const all = setup([], noProduct);
    await expect(runLoanCreate({}, all.deps)).rejects.toThrow(/^Missing --product, --user, --amount, --purpose:/);
    const onlyProduct = setup([], noProduct);
    await expect(runLoanCreate({ user: '1', amount: '100', purpose: 'x' }, onlyProduct.deps)).rejects.toThrow(
      /^Missing --product: /,
    );
    expect([...one.api.sent, ...all.api.sent, ...onlyProduct.api.sent]).toEqual([]);
    // On a terminal the product is still checked before any question is asked.
    const terminal = setup([], { env: { LOANCTL_PRODUCT_ID: undefined } });
    await expect(runLoanCreate({}, terminal.deps)).rejects.toThrow(/^Missing --product: /);
    expect(terminal.asked).toEqual([]);
  });
});

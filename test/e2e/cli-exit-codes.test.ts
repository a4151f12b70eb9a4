/**
 * Every row of the exit-code table (docs/guide.md#exit-codes) provoked through the real program, run
 * in-process (`runCli`) against the in-process sandbox, with the one line on stderr that says what
 * to do; and, once for each code, through the real built bin in a process of its own (the code a
 * shell sees is the one main returns).
 *
 * 130 (declining a confirmation) needs a terminal: here, `loan delete` / `loan approve` without
 * `--yes` and without a TTY are asserted to be exit 2 naming `--yes`; the declined prompt itself
 * is left to the pseudo-terminal test, confirm-pty.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoanRequest } from '../../src/contract/schemas.js';
import { borrower, run as spawnBin } from '../helpers/cli.js';
import { closedPort } from '../helpers/ports.js';
import { type CliResult, type CliSandbox, cliSandbox } from '../helpers/run-cli.js';

let sandbox: CliSandbox;
let loanId: string;

/** One line on stderr (plus commander's help hint for its own errors), no stack trace. */
function expectOneLine(result: CliResult, pattern: RegExp) {
  // The line without its newline (the pattern may end with $), as a shell's $(…) gives it.
  expect(result.stderr.replace(/\n$/, '')).toMatch(pattern);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

beforeAll(async () => {
  sandbox = await cliSandbox();
  await sandbox.run(['user', 'create', ...borrower('exit@example.com'), '--password-stdin'], { stdin: 'pw' });
  const loan = await sandbox.run([
    'loan',
    'create',
    '--user',
    'exit@example.com',
    '--amount',
    '5000',
    '--purpose',
    'Stock',
  ]);
  expect(loan.exitCode, loan.stderr).toBe(0);
  loanId = String(loan.json<LoanRequest>().id);
});

afterAll(async () => {
  await sandbox?.close();
});

describe('exit 0: success', () => {
  it('a read and an idempotent create', async () => {
    expect((await sandbox.run(['loan', 'progress', loanId])).exitCode).toBe(0);
    expect(
      (await sandbox.run(['user', 'create', ...borrower('exit@example.com'), '--password-stdin'], { stdin: 'pw' }))
        .exitCode,
    ).toBe(0);
  });
});

describe('exit 1: the API answered with an error', () => {
  it('a second employment entry is HTTP 500 / status error', async () => {
    const flags = [
      ...['--status', 'employed', '--company-name', 'Acme', '--company-address', 'Lagos', '--position', 'Clerk'],
      ...['--salary', '1000', '--manager', 'M', '--manager-phone', '08000000000', '--manager-email', 'm@acme.ng'],
    ];
    expect((await sandbox.run(['loan', 'add-employment', loanId, ...flags])).exitCode).toBe(0);
    const second = await sandbox.run(['loan', 'add-employment', loanId, ...flags]);
    expect(second.exitCode).toBe(1);
    expectOneLine(second, /^loanctl: The API answered with an error \(HTTP 500\): .*only be updated/);
    expect(second.stdout).toBe('');
  });

  it('tokenizing a loan request without bank details is HTTP 500', async () => {
    const result = await sandbox.run(['loan', 'tokenize', loanId]);
    expect(result.exitCode).toBe(1);
    expectOneLine(result, /Something went wrong/);
  });
});

describe('exit 2: usage errors, caught before anything is sent', () => {
  // Any id does: these fail before a request is sent.
  it.each([
    [
      ['user', 'create', ...borrower('bad@example.com', '12345'), '--password-stdin'],
      /--phone must be a Nigerian phone number.*"12345"/,
    ],
    [['user', 'create', ...borrower('not-an-email')], /--email must be an e-mail address/],
    [['user', 'create', ...borrower('nopass@example.com')], /password.*--password-stdin/],
    [
      ['user', 'exists'],
      /^loanctl: Required option '--email <email>' not specified. See 'loanctl user exists --help'.$/,
    ],
    [['user', 'list', '--start', '2024-02-30'], /--start must be a real date written yyyy-mm-dd/],
    [
      ['loan', 'create', '--user', 'exit@example.com', '--amount', 'abc', '--purpose', 'x'],
      /--amount must be a positive amount/,
    ],
    [
      ['loan', 'create', '--user', 'exit@example.com', '--amount', '-5', '--purpose', 'x'],
      /--amount must be a positive amount/,
    ],
    [
      ['loan', 'create', '--user', 'exit@example.com', '--amount', '0', '--purpose', 'x'],
      /--amount must be more than 0/,
    ],
    [
      ['loan', 'create', '--user', 'exit@example.com', '--amount', '1e400', '--purpose', 'x'],
      /--amount must be a positive amount/,
    ],
    [['loan', 'create', '--amount', '5', '--purpose', 'x'], /Missing --user/],
    [['loan', 'create', '--user', 'exit@example.com', '--amount', '5'], /Missing --purpose/],
    [
      ['loan', 'create', '--user', '1', '--amount', '5', '--purpose', 'x', '--bogus'],
      /^loanctl: Unknown option '--bogus'. See 'loanctl loan create --help'.$/,
    ],
    [['loan', 'lst'], /^loanctl: Unknown command 'lst'. Did you mean list\? See 'loanctl loan --help'.$/],
    [['loan', 'submit', '1', '--fields', 'id,nope'], /--fields: unknown field "nope"; nothing was sent/],
    [['loan', 'show', 'abc'], /loan request ID must be an id/],
    [['loan', 'list', '--direction', 'up'], /--direction must be ASC or DESC/],
    [['loan', 'update', '1', '--data', '{not json'], /--data is not valid JSON/],
    [['loan', 'add-bank', '1', '--code', '058'], /Missing --account-name/],
    [
      [
        'loan',
        'add-guarantor',
        '1',
        '--firstname',
        'A',
        '--lastname',
        'B',
        '--gender',
        'm',
        '--relationship',
        'x',
        '--email',
        'a@b.co',
        '--phone',
        '+44123',
      ],
      /--phone must be a Nigerian/,
    ],
    [
      [
        'loan',
        'add-business',
        '1',
        '--name',
        'N',
        '--role',
        'r',
        '--industry',
        'i',
        '--description',
        'd',
        '--registered',
        '--established-on',
        '2019-02-29',
      ],
      /--established-on must be a real date/,
    ],
    [
      [
        'loan',
        'approve',
        '1',
        '--approved-amount',
        '1',
        '--rate',
        '1',
        '--tenure',
        '1',
        '--tenured-in',
        'months',
        '--rate-type',
        'simple-interest',
        '--frequency',
        'yearly',
        '--yes',
      ],
      /--frequency must be one of daily, weekly, bi-weekly, monthly \(got "yearly"\)/,
    ],
    [
      [
        'loan',
        'approve',
        '1',
        '--approved-amount',
        '1',
        '--rate',
        '1',
        '--tenure',
        '1.5',
        '--tenured-in',
        'months',
        '--rate-type',
        'simple-interest',
        '--frequency',
        'monthly',
        '--yes',
      ],
      /--tenure must be a whole number/,
    ],
    [
      ['loan', 'upload-document', '1', '--type', 't', '--title', 't', '--number', '1', '--url', 'not a url'],
      /--url must be an http or https URL \(got/,
    ],
    [
      ['loan', 'upload-document', '1', '--type', 't', '--title', 't', '--number', '1', '--url', 'javascript:alert(1)'],
      /--url must be an http or https URL \(got/,
    ],
  ])('%j', async (args, message) => {
    const result = await sandbox.run(args as string[]);
    expect(result.exitCode, result.stderr).toBe(2);
    expectOneLine(result, message as RegExp);
    expect(result.stdout).toBe('');
  });

  it('a loan command without a product anywhere names --product, LOANCTL_PRODUCT_ID and profile add --product-id', async () => {
    const result = await sandbox.run(['loan', 'list'], { env: { LOANCTL_PRODUCT_ID: undefined } });
    expect(result.exitCode).toBe(2);
    expectOneLine(result, /Missing --product.*LOANCTL_PRODUCT_ID.*profile add .*--product-id/);
  });

  it('loan delete and loan approve without --yes and without a terminal name --yes (130 is for the pty tests)', async () => {
    const remove = await sandbox.run(['loan', 'delete', loanId]);
    expect(remove.exitCode).toBe(2);
    expectOneLine(remove, /--yes/);
    const approve = await sandbox.run([
      ...['loan', 'approve', loanId, '--approved-amount', '1', '--rate', '1', '--tenure', '1'],
      ...['--tenured-in', 'months', '--rate-type', 'simple-interest', '--frequency', 'monthly'],
    ]);
    expect(approve.exitCode).toBe(2);
    expectOneLine(approve, /--yes/);
    // Nothing was deleted or approved.
    const shown = await sandbox.run(['loan', 'show', loanId]);
    expect(shown.exitCode).toBe(0);
    expect(shown.json<{ loan_request: LoanRequest }>().loan_request.lender_status).toBe('saved');
  });
});

describe('exit 3: authentication', () => {
  it('no API key configured', async () => {
    const result = await sandbox.run(['loan', 'list'], { env: { LOANCTL_API_KEY: undefined } });
    expect(result.exitCode).toBe(3);
    expectOneLine(result, /No API key is configured/);
  });

  it('a key the API rejects', async () => {
    const result = await sandbox.run(['user', 'list'], {
      env: { LOANCTL_API_KEY: 'sk_sandbox_wrongwrongwrongwrong' },
    });
    expect(result.exitCode).toBe(3);
    expectOneLine(result, /rejected the API key \(HTTP 401\)/);
    expect(result.stderr).not.toContain('sk_sandbox_wrongwrongwrongwrong');
  });
});

describe('exit 4: no access / not found', () => {
  it('an unknown loan request', async () => {
    const shown = await sandbox.run(['loan', 'show', '999999']);
    expect(shown.exitCode).toBe(4);
    expectOneLine(shown, /No loan request 999999 under product \d+ in your organisation/);
    const progress = await sandbox.run(['loan', 'progress', '999999']);
    expect(progress.exitCode).toBe(4);
    expectOneLine(progress, /No access/);
  });

  it('an e-mail that is no user of the organisation', async () => {
    const result = await sandbox.run([
      'loan',
      'create',
      '--user',
      'ghost@example.com',
      '--amount',
      '5',
      '--purpose',
      'x',
    ]);
    expect(result.exitCode).toBe(4);
    expectOneLine(result, /No user with e-mail ghost@example.com in your organisation/);
  });

  it("another organisation's loan request and user", async () => {
    const other = sandbox.addOrg('Other Lender');
    const env = { LOANCTL_API_KEY: other.api_key, LOANCTL_PRODUCT_ID: String(other.product_id) };
    for (const args of [
      ['loan', 'show', loanId],
      ['loan', 'progress', loanId],
      ['loan', 'update', loanId, '--purpose', 'mine now'],
      ['loan', 'delete', loanId, '--yes'],
    ]) {
      const result = await sandbox.run(args, { env });
      expect(result.exitCode, `${args.join(' ')}: ${result.stderr}`).toBe(4);
      expectOneLine(result, /No (access|loan request)/);
    }
    // Their key with our product, and our user id with their product.
    expect((await sandbox.run(['loan', 'list', '--product', String(sandbox.product_id)], { env })).exitCode).toBe(4);
    const users = await sandbox.run(['user', 'list']);
    const ours = users.json<{ id: number }[]>()[0]?.id as number;
    const create = await sandbox.run(['loan', 'create', '--user', String(ours), '--amount', '5', '--purpose', 'x'], {
      env,
    });
    expect(create.exitCode).toBe(4);
    expectOneLine(create, /No access: You do not have access to this user/);
    // Our loan request is untouched.
    expect((await sandbox.run(['loan', 'show', loanId])).exitCode).toBe(0);
  });
});

describe('exit 5: network', () => {
  it('connection refused on a closed port', async () => {
    const port = await closedPort();
    const result = await sandbox.run(['loan', 'list'], { env: { LOANCTL_BASE_URL: `http://127.0.0.1:${port}` } });
    expect(result.exitCode).toBe(5);
    expectOneLine(result, new RegExp(`Could not connect to 127\\.0\\.0\\.1:${port}: connection refused`));
  });
});

describe('the real bin exits with the code of each row', () => {
  it.each([
    [0, () => ['loan', 'progress', loanId], {}],
    [1, () => ['loan', 'tokenize', loanId], {}],
    [2, () => ['loan', 'show', 'abc'], {}],
    [3, () => ['loan', 'list'], { LOANCTL_API_KEY: undefined }],
    [4, () => ['loan', 'show', '999999'], {}],
    [5, () => ['loan', 'list'], { LOANCTL_BASE_URL: 'http://127.0.0.1:1' }],
  ] as const)('exit %i', async (code, args, overrides) => {
    const result = await spawnBin({ env: sandbox.env }, [...args()], { env: overrides });
    expect(result.code, result.stderr).toBe(code);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

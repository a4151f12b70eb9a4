/**
 * Every row of the exit-code table (conventions.md) provoked through the real CLI against a real
 * sandbox process, with the one line on stderr that says what to do.
 *
 * 130 (declining a confirmation) needs a terminal: here, `loan delete` / `loan approve` without
 * `--yes` and without a TTY are asserted to be exit 2 naming `--yes`; the declined prompt itself
 * is left to the pty tests of issue #4.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoanRequest } from '../../src/contract/schemas.js';
import { borrower, createOtherOrg, type E2eSandbox, type RunResult, run, startSandbox } from '../helpers/cli.js';
import { closedPort } from '../helpers/ports.js';

let sandbox: E2eSandbox;
let loanId: string;

/** One line on stderr (plus commander's help hint for its own errors), no stack trace. */
function expectOneLine(result: RunResult, pattern: RegExp) {
  expect(result.stderr).toMatch(pattern);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

beforeAll(async () => {
  sandbox = await startSandbox();
  await run(sandbox, ['user', 'create', ...borrower('exit@example.com'), '--password-stdin'], { input: 'pw' });
  const loan = await run(sandbox, [
    'loan',
    'create',
    '--user',
    'exit@example.com',
    '--amount',
    '5000',
    '--purpose',
    'Stock',
  ]);
  expect(loan.code, loan.stderr).toBe(0);
  loanId = String(loan.json<LoanRequest>().id);
});

afterAll(async () => {
  await sandbox?.stop();
});

describe('exit 0: success', () => {
  it('a read and an idempotent create', async () => {
    expect((await run(sandbox, ['loan', 'progress', loanId])).code).toBe(0);
    expect(
      (await run(sandbox, ['user', 'create', ...borrower('exit@example.com'), '--password-stdin'], { input: 'pw' }))
        .code,
    ).toBe(0);
  });
});

describe('exit 1: the API answered with an error', () => {
  it('a second employment entry is HTTP 500 / status error', async () => {
    const flags = [
      ...['--status', 'employed', '--company-name', 'Acme', '--company-address', 'Lagos', '--position', 'Clerk'],
      ...['--salary', '1000', '--manager', 'M', '--manager-phone', '08000000000', '--manager-email', 'm@acme.ng'],
    ];
    expect((await run(sandbox, ['loan', 'add-employment', loanId, ...flags])).code).toBe(0);
    const second = await run(sandbox, ['loan', 'add-employment', loanId, ...flags]);
    expect(second.code).toBe(1);
    expectOneLine(second, /^loanctl: The API answered with an error \(HTTP 500\): .*only be updated/);
    expect(second.stdout).toBe('');
  });

  it('tokenizing a loan request without bank details is HTTP 500', async () => {
    const result = await run(sandbox, ['loan', 'tokenize', loanId]);
    expect(result.code).toBe(1);
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
      /document_url must be an http or https URL.*--url/,
    ],
    [
      ['loan', 'upload-document', '1', '--type', 't', '--title', 't', '--number', '1', '--url', 'javascript:alert(1)'],
      /document_url must be an http or https URL.*--url/,
    ],
  ])('%j', async (args, message) => {
    const result = await run(sandbox, args as string[]);
    expect(result.code, result.stderr).toBe(2);
    expectOneLine(result, message as RegExp);
    expect(result.stdout).toBe('');
  });

  it('a loan command without a product anywhere names --product, LOANCTL_PRODUCT_ID and profile add --product-id', async () => {
    const result = await run(sandbox, ['loan', 'list'], { env: { LOANCTL_PRODUCT_ID: undefined } });
    expect(result.code).toBe(2);
    expectOneLine(result, /Missing --product.*LOANCTL_PRODUCT_ID.*profile add .*--product-id/);
  });

  it('loan delete and loan approve without --yes and without a terminal name --yes (130 is for the pty tests)', async () => {
    const remove = await run(sandbox, ['loan', 'delete', loanId]);
    expect(remove.code).toBe(2);
    expectOneLine(remove, /--yes/);
    const approve = await run(sandbox, [
      ...['loan', 'approve', loanId, '--approved-amount', '1', '--rate', '1', '--tenure', '1'],
      ...['--tenured-in', 'months', '--rate-type', 'simple-interest', '--frequency', 'monthly'],
    ]);
    expect(approve.code).toBe(2);
    expectOneLine(approve, /--yes/);
    // Nothing was deleted or approved.
    const shown = await run(sandbox, ['loan', 'show', loanId]);
    expect(shown.code).toBe(0);
    expect(shown.json<{ loan_request: LoanRequest }>().loan_request.lender_status).toBe('saved');
  });
});

describe('exit 3: authentication', () => {
  it('no API key configured', async () => {
    const result = await run(sandbox, ['loan', 'list'], { env: { LOANCTL_API_KEY: undefined } });
    expect(result.code).toBe(3);
    expectOneLine(result, /No API key is configured/);
  });

  it('a key the API rejects', async () => {
    const result = await run(sandbox, ['user', 'list'], {
      env: { LOANCTL_API_KEY: 'sk_sandbox_wrongwrongwrongwrong' },
    });
    expect(result.code).toBe(3);
    expectOneLine(result, /rejected the API key \(HTTP 401\)/);
    expect(result.stderr).not.toContain('sk_sandbox_wrongwrongwrongwrong');
  });
});

describe('exit 4: no access / not found', () => {
  it('an unknown loan request', async () => {
    const shown = await run(sandbox, ['loan', 'show', '999999']);
    expect(shown.code).toBe(4);
    expectOneLine(shown, /No loan request 999999 under product \d+ in your organisation/);
    const progress = await run(sandbox, ['loan', 'progress', '999999']);
    expect(progress.code).toBe(4);
    expectOneLine(progress, /No access/);
  });

  it('an e-mail that is no user of the organisation', async () => {
    const result = await run(sandbox, [
      'loan',
      'create',
      '--user',
      'ghost@example.com',
      '--amount',
      '5',
      '--purpose',
      'x',
    ]);
    expect(result.code).toBe(4);
    expectOneLine(result, /No user with e-mail ghost@example.com in your organisation/);
  });

  it("another organisation's loan request and user", async () => {
    const other = await createOtherOrg(sandbox);
    const env = { LOANCTL_API_KEY: other.api_key, LOANCTL_PRODUCT_ID: String(other.product_id) };
    for (const args of [
      ['loan', 'show', loanId],
      ['loan', 'progress', loanId],
      ['loan', 'update', loanId, '--purpose', 'mine now'],
      ['loan', 'delete', loanId, '--yes'],
    ]) {
      const result = await run(sandbox, args, { env });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(4);
      expectOneLine(result, /No (access|loan request)/);
    }
    // Their key with our product, and our user id with their product.
    expect((await run(sandbox, ['loan', 'list', '--product', String(sandbox.product_id)], { env })).code).toBe(4);
    const users = await run(sandbox, ['user', 'list']);
    const ours = users.json<{ id: number }[]>()[0]?.id as number;
    const create = await run(sandbox, ['loan', 'create', '--user', String(ours), '--amount', '5', '--purpose', 'x'], {
      env,
    });
    expect(create.code).toBe(4);
    expectOneLine(create, /No access: You do not have access to this user/);
    // Our loan request is untouched.
    expect((await run(sandbox, ['loan', 'show', loanId])).code).toBe(0);
  });
});

describe('exit 5: network', () => {
  it('connection refused on a closed port', async () => {
    const port = await closedPort();
    const result = await run(sandbox, ['loan', 'list'], { env: { LOANCTL_BASE_URL: `http://127.0.0.1:${port}` } });
    expect(result.code).toBe(5);
    expectOneLine(result, new RegExp(`Could not connect to 127\\.0\\.0\\.1:${port}: connection refused`));
  });
});

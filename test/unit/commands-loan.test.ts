/**
 * The loan and user verbs called directly (`runX(options, deps)`) with fake deps: a fake API client
 * that records calls, captured io, and a scripted prompter. What the e2e tests cannot reach:
 * prompts on a terminal (confirm, decline → 130, password), and that `loan show` sends its five
 * requests at once.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLoanAddBusiness } from '../../src/commands/loan/add-business.js';
import { runLoanApprove } from '../../src/commands/loan/approve.js';
import { runLoanCreate } from '../../src/commands/loan/create.js';
import { runLoanDelete } from '../../src/commands/loan/delete.js';
import { runLoanList } from '../../src/commands/loan/list.js';
import { runLoanShow } from '../../src/commands/loan/show.js';
import { runUserCreate } from '../../src/commands/user/create.js';
import { runUserList } from '../../src/commands/user/list.js';
import { ZERO_TIMESTAMP } from '../../src/contract/schemas.js';
import { createDeps, type Deps, type GlobalOptions } from '../../src/deps.js';
import { CancelledError, ExitCode, NoAccessError, UsageError } from '../../src/errors.js';
import type { ApiClient, CallOptions } from '../../src/http/client.js';
import type { Prompter } from '../../src/prompts/prompter.js';
import { apiResult } from '../helpers/api-result.js';
import { type FakeIo, fakeIo } from '../helpers/fake-io.js';

interface Call {
  key: string;
  options: CallOptions & { query?: Record<string, unknown> };
}

type Handler = (options: CallOptions & { query?: Record<string, unknown> }) => unknown;

interface Harness {
  deps: Deps;
  io: FakeIo;
  calls: Call[];
}

function harness(
  handlers: Record<string, Handler>,
  options: {
    tty?: boolean;
    input?: string;
    answers?: Partial<Prompter>;
    env?: Record<string, string>;
    globals?: GlobalOptions;
  } = {},
): Harness {
  const io = fakeIo({ tty: options.tty, input: options.input });
  const calls: Call[] = [];
  const configDir = mkdtempSync(join(tmpdir(), 'loanctl-unit-'));
  const prompter: Prompter = {
    password: async () => {
      throw new Error('unexpected password prompt');
    },
    input: async () => {
      throw new Error('unexpected input prompt');
    },
    confirm: async () => {
      throw new Error('unexpected confirm prompt');
    },
    ...options.answers,
  };
  const deps = createDeps({
    io,
    env: {
      LOANCTL_CONFIG_DIR: configDir,
      LOANCTL_PRODUCT_ID: '7',
      LOANCTL_API_KEY: 'k',
      LOANCTL_BASE_URL: 'http://127.0.0.1:1',
      ...options.env,
    },
    globals: { output: 'json', ...options.globals },
    prompter,
  });
  const client = {
    settings: {} as ApiClient['settings'],
    async call(key: string, callOptions: CallOptions = {}) {
      calls.push({ key, options: callOptions });
      const handler = handlers[key];
      if (!handler) throw new Error(`unexpected call ${key}`);
      const value = await handler(callOptions);
      return value && typeof value === 'object' && 'rawBody' in value ? value : apiResult(value);
    },
    request: async () => {
      throw new Error('unexpected raw request');
    },
    close: async () => {},
  } as unknown as ApiClient;
  deps.api = async () => client;
  return { deps, io, calls };
}

function loan(id: number, extra: Record<string, unknown> = {}) {
  return {
    id,
    user_id: 3,
    fullname: 'Ada Obi',
    amount: 50000,
    purpose: 'Stock',
    status: 'saved',
    lender_status: 'saved',
    submitted_at: ZERO_TIMESTAMP,
    approved_at: ZERO_TIMESTAMP,
    ...extra,
  };
}

/** The look-up `loan approve` reads the loan request through (spec 4.5): loan 5, submitted. */
const submittedLoan5 = () => ({
  loan_requests: [loan(5, { user_status: 'submitted', submitted_at: '2026-03-01T10:00:00Z' })],
  cursor: 5,
});

const terms = {
  id: '5',
  approvedAmount: '45000',
  rate: '5',
  tenure: '6',
  tenuredIn: 'months',
  rateType: 'simple-interest',
  frequency: 'weekly',
};

describe('confirmation (loan approve, loan delete)', () => {
  it('asks on a terminal and sends when the operator agrees; weekly goes out as weekely', async () => {
    const questions: string[] = [];
    const { deps, calls } = harness(
      { listLoanRequests: submittedLoan5, approveLoanRequest: () => loan(5, { lender_status: 'approved' }) },
      {
        tty: true,
        answers: {
          confirm: async (question) => {
            questions.push(question);
            return true;
          },
        },
      },
    );
    await runLoanApprove(terms, deps);
    expect(questions).toEqual([
      'Approve loan request 5: 45,000.00 at 5% a month (simple interest) over 6 months, repaid weekly?',
    ]);
    expect(calls.map((call) => call.key)).toEqual(['listLoanRequests', 'approveLoanRequest']);
    expect(calls[1]?.options).toMatchObject({
      params: { id: 5 },
      productId: 7,
      query: { action: 'approve' },
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
    for (const run of [(deps: Deps) => runLoanApprove(terms, deps), (deps: Deps) => runLoanDelete({ id: '5' }, deps)]) {
      const { deps, calls } = harness(
        { listLoanRequests: submittedLoan5 },
        { tty: true, answers: { confirm: async () => false } },
      );
      const error = await run(deps).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CancelledError);
      expect((error as CancelledError).exitCode).toBe(ExitCode.cancelled);
      // approve reads the loan request to review it; nothing is written.
      expect(calls.filter((call) => call.key !== 'listLoanRequests')).toEqual([]);
    }
  });

  it('off a terminal, a missing --yes is exit 2 naming --yes; --no-input counts as off', async () => {
    const { deps } = harness({}, { tty: true, globals: { input: false } });
    const error = await runLoanDelete({ id: '5' }, deps).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect(`${(error as UsageError).message} ${(error as UsageError).hint}`).toContain('--yes');
  });

  it('an unknown --fields name is exit 2 before anything is asked or sent', async () => {
    const { deps, calls } = harness({}, { tty: true, globals: { output: 'json', fields: 'id,terms.frequency' } });
    await expect(runLoanApprove(terms, deps)).rejects.toThrow(
      /--fields: unknown field "terms.frequency"; nothing was sent/,
    );
    expect(calls).toEqual([]);
    const ok = harness(
      { listLoanRequests: submittedLoan5, approveLoanRequest: () => loan(5) },
      { globals: { output: 'json', fields: 'id,status' } },
    );
    await runLoanApprove({ ...terms, yes: true }, ok.deps);
    expect(ok.calls).toHaveLength(2);
  });

  it('bad terms are caught before the question is asked', async () => {
    const { deps } = harness({}, { tty: true });
    await expect(runLoanApprove({ ...terms, rateType: 'flat' }, deps)).rejects.toThrow(/--rate-type must be one of/);
  });
});

describe('user create', () => {
  const flags = { firstname: 'Ada', lastname: 'Obi', email: 'ada@example.com', phone: '08012345678', gender: 'female' };

  it('asks for the password with a masked prompt on a terminal, after checking the other fields', async () => {
    let asked = 0;
    const { deps, calls, io } = harness(
      { createUser: () => ({ ...flags, phone: '+2348012345678', reference: 'U1' }) },
      {
        tty: true,
        answers: {
          password: async () => {
            asked++;
            return 'pw';
          },
        },
      },
    );
    await expect(runUserCreate({ ...flags, phone: '123' }, deps)).rejects.toThrow(/--phone/);
    expect(asked).toBe(0);
    await runUserCreate(flags, deps);
    expect(asked).toBe(1);
    expect(calls[0]?.options.body).toEqual({ ...flags, phone: '+2348012345678', password: 'pw' });
    expect(JSON.parse(io.stdout.text())).toMatchObject({ status: 'created' });
    expect(io.stdout.text()).not.toContain('"password"');
  });

  it('an existing e-mail is success with "status": "exists" and a notice', async () => {
    const { deps, io } = harness(
      { createUser: () => apiResult({ ...flags, reference: 'U1' }, { status: 'exists' }) },
      { input: 'pw\n' },
    );
    await runUserCreate({ ...flags, passwordStdin: true }, deps);
    expect(JSON.parse(io.stdout.text())).toMatchObject({ email: 'ada@example.com', status: 'exists' });
    expect(io.stderr.text()).toContain('already exists; nothing was created');
    expect(io.stderr.text()).toContain('next: loanctl loan create --user ada@example.com');
  });

  it('sends a password from stdin exactly as given, spaces included, without the final newline', async () => {
    const { deps, calls } = harness(
      { createUser: () => apiResult({ ...flags, reference: 'U1' }) },
      { input: ' two words \n' },
    );
    await runUserCreate({ ...flags, passwordStdin: true }, deps);
    expect(calls[0]?.options.body).toMatchObject({ password: ' two words ' });
  });

  it('--password-stdin and --data - cannot share stdin', async () => {
    const { deps } = harness({});
    await expect(runUserCreate({ passwordStdin: true, data: '-' }, deps)).rejects.toThrow(/both read stdin/);
  });
});

describe('loan show', () => {
  it('sends its five requests at once and finds the loan request through the list', async () => {
    let inFlight = 0;
    let most = 0;
    const slow = (value: unknown) => async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight--;
      return value;
    };
    const { deps, calls, io } = harness({
      listLoanRequests: slow({ loan_requests: [loan(5)], cursor: 5 }),
      getProgress: slow('bank_details'),
      getBankDetails: slow([{ id: 1, code: '058' }]),
      getGuarantors: slow([]),
      getEmployment: slow(null),
    });
    await runLoanShow({ id: '5' }, deps);
    expect(most).toBe(5);
    expect(calls.find((call) => call.key === 'listLoanRequests')?.options.query).toEqual({
      direction: 'ASC',
      cursor: 4,
      limit: 1,
    });
    expect(JSON.parse(io.stdout.text())).toMatchObject({
      loan_request: { id: 5 },
      progress: 'bank_details',
      bank_details: [{ code: '058' }],
      guarantors: [],
      employment: null,
    });
  });

  it('a list whose first row is another id means not found (exit 4)', async () => {
    const { deps } = harness({
      listLoanRequests: () => ({ loan_requests: [loan(9)], cursor: 9 }),
      getProgress: () => '',
      getBankDetails: () => [],
      getGuarantors: () => [],
      getEmployment: () => null,
    });
    const error = await runLoanShow({ id: '5' }, deps).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NoAccessError);
    expect((error as NoAccessError).message).toBe('No loan request 5 under product 7 in your organisation.');
  });
});

describe('loan create --user EMAIL', () => {
  it('asks whether the e-mail exists, then finds it in the user list', async () => {
    const pages: Record<number, unknown[]> = {
      1: [{ id: 1, org_id: 2, email: 'a@example.com' }],
      2: [{ id: 2, org_id: 2, email: 'Ada@Example.com' }],
    };
    const { deps, calls, io } = harness({
      userExists: () => true,
      listUsers: (options) => pages[Number(options.query?.pages)] ?? [],
      createLoanRequest: () => loan(11),
    });
    await runLoanCreate({ user: 'ada@example.com', amount: '50,000', purpose: ' Stock ' }, deps);
    expect(calls[0]?.key).toBe('userExists');
    expect(calls.at(-1)).toMatchObject({
      key: 'createLoanRequest',
      options: { params: { user_id: 2 }, productId: 7, body: { amount: 50000, purpose: 'Stock' } },
    });
    expect(io.stderr.text()).toContain('ada@example.com is user 2.');
  });

  it('says an unknown e-mail is not found after asking whether it exists (exit 4)', async () => {
    const { deps, calls } = harness({ userExists: () => false });
    await expect(runLoanCreate({ user: 'ghost@example.com', amount: '5', purpose: 'x' }, deps)).rejects.toBeInstanceOf(
      NoAccessError,
    );
    expect(calls.map((call) => call.key)).toEqual(['userExists']);
  });

  it('stops on a server that repeats one page for every page number, and says not found (exit 4)', async () => {
    const { deps, calls } = harness({
      userExists: () => true,
      listUsers: () => [{ id: 1, org_id: 2, email: 'a@example.com' }],
    });
    await expect(runLoanCreate({ user: 'ghost@example.com', amount: '5', purpose: 'x' }, deps)).rejects.toBeInstanceOf(
      NoAccessError,
    );
    expect(calls.length).toBeLessThan(10);
  });

  it('checks --product before looking anything up', async () => {
    const { deps, calls } = harness({}, { env: { LOANCTL_PRODUCT_ID: '' } });
    await expect(runLoanCreate({ user: 'a@b.co', amount: '5', purpose: 'x' }, deps)).rejects.toThrow(
      /Missing --product/,
    );
    expect(calls).toEqual([]);
  });
});

describe('loan list and user list paging', () => {
  it('loan list --all walks the cursor until an empty page and prints one JSON array', async () => {
    const { deps, calls, io } = harness({
      listLoanRequests: (options) => {
        const cursor = Number(options.query?.cursor ?? 0);
        return cursor === 0
          ? { loan_requests: [loan(9), loan(8)], cursor: 8 }
          : cursor === 8
            ? { loan_requests: [loan(7)], cursor: 7 }
            : { loan_requests: [], cursor: 0 };
      },
    });
    await runLoanList({ all: true, limit: '2' }, deps);
    expect(calls.map((call) => call.options.query)).toEqual([
      { direction: 'DESC', cursor: undefined, limit: 2 },
      { direction: 'DESC', cursor: 8, limit: 2 },
      { direction: 'DESC', cursor: 7, limit: 2 },
    ]);
    expect(JSON.parse(io.stdout.text()).map((row: { id: number }) => row.id)).toEqual([9, 8, 7]);
  });

  it('loan list says next: --cursor only when a look-ahead finds more', async () => {
    const { deps, io } = harness({
      listLoanRequests: (options) =>
        options.query?.cursor === 8
          ? { loan_requests: [loan(7)], cursor: 7 }
          : { loan_requests: [loan(9), loan(8)], cursor: 8 },
    });
    await runLoanList({ limit: '2' }, deps);
    expect(io.stderr.text()).toBe('next: --cursor 8 --limit 2\n');
  });

  it('user list --page 2 says next: --page 3 when page 3 has users', async () => {
    const { deps, io } = harness({
      listUsers: (options) =>
        Number(options.query?.pages) <= 3 ? [{ id: Number(options.query?.pages), org_id: 1 }] : [],
    });
    await runUserList({ page: '2' }, deps);
    expect(io.stderr.text()).toBe('next: --page 3\n');
  });

  it('user list keeps --start and --end in its next-page hint', async () => {
    const { deps, io } = harness({
      listUsers: (options) =>
        Number(options.query?.pages) <= 3 ? [{ id: Number(options.query?.pages), org_id: 1 }] : [],
    });
    await runUserList({ start: '2026-01-01', end: '2026-01-31', page: '2' }, deps);
    expect(io.stderr.text()).toBe('next: --start 2026-01-01 --end 2026-01-31 --page 3\n');
  });
});

describe('loan add-business org id', () => {
  const business = { id: '5', name: 'N', role: 'owner', industry: 'retail', description: 'd', registered: true };

  it('comes from the first page of the user list when neither a flag nor a profile gives it', async () => {
    const { deps, calls, io } = harness({
      listUsers: () => [{ id: 1, org_id: 42 }],
      addBusinessInfo: (options) => ({ id: 1, ...(options.body as object) }),
    });
    await runLoanAddBusiness(business, deps);
    expect(calls[1]?.options.body).toMatchObject({ org_id: 42, registered: true });
    expect(io.stderr.text()).toContain('Using org id 42');
  });

  it('--org-id wins and nothing is looked up', async () => {
    const { deps, calls } = harness({ addBusinessInfo: (options) => options.body });
    await runLoanAddBusiness({ ...business, orgId: '3' }, deps);
    expect(calls.map((call) => call.key)).toEqual(['addBusinessInfo']);
    expect(calls[0]?.options.body).toMatchObject({ org_id: 3 });
  });

  it('other mistakes are reported before the lookup', async () => {
    const { deps, calls } = harness({});
    await expect(runLoanAddBusiness({ ...business, establishedOn: '2019-02-30' }, deps)).rejects.toThrow(
      /--established-on/,
    );
    await expect(runLoanAddBusiness({ id: '5', name: 'N' }, deps)).rejects.toThrow(/Missing --role, --industry/);
    expect(calls).toEqual([]);
  });
});

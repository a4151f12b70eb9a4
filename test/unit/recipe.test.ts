/**
 * CONTRIBUTING.md "Adding an operation", proved, for each kind of operation it counts:
 * - the easy case: a read of a stored value, and a move from the first stages with one body field
 *   and an error reply of its own (`decision`, `decline`);
 * - a move that starts at a later stage, stores a new column and adds a stage (`disburse`: only
 *   once approved, a new `disbursed` stage marked by a timestamp, the transfer's reference kept);
 * - a read that needs a stage and returns a record the API did not have (`repayments`: only once
 *   approved, the instalments computed from the stored terms).
 * Each is its contract row, its state-table row (and stage), its record fields, its migration and
 * its sandbox handler, nothing else. From them alone come the CLI's
 * verbs (arguments, flags, help, examples), their completion, the sandbox's routes with validation
 * and envelope, the OpenAPI paths and success examples, the check command, `loanctl api`'s methods
 * and the sample bodies of the tests.
 *
 * The rows are added to the real tables (vi.mock of each file, keeping every row of the
 * original): the loan requests' rows, the state table, the record table, the migrations and the
 * handler map: what CONTRIBUTING.md tells a contributor to write, and only that. Workers run several files
 * without reloading modules (vitest.config.ts `isolate: false`), so this file loads the program afresh after the mocks
 * (vi.resetModules, then import()) and leaves the real modules for the files after it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { approvalFlags } from '../helpers/cli.js';
import type { CliSandbox } from '../helpers/run-cli.js';

/** The error reply of the rows that need an approved loan request (hoisted: the mocks run first). */
const { NOT_APPROVED } = vi.hoisted(() => ({
  NOT_APPROVED: {
    http: 400,
    status: 'error',
    message: 'The loan request is not approved',
    when: 'the loan request is not approved yet',
  },
}));

vi.mock('../../src/contract/table/loan-requests.js', async (importOriginal) => {
  const { LOAN_REQUEST_OPERATIONS } =
    await importOriginal<typeof import('../../src/contract/table/loan-requests.js')>();
  const extra = [
    {
      key: 'getDecision',
      summary: 'Get the decision on a loan request',
      spec: 'x.1',
      method: 'GET',
      path: '/api/v1/loan_request/:id/decision',
      pathParams: ['id'],
      productId: true,
      // A fixed parameter: the verb sends it without a flag.
      query: { view: { type: 'literal', value: 'lender' } },
      reply: { data: 'string' },
      verb: 'loan decision',
    },
    {
      key: 'declineLoanRequest',
      summary: 'Decline a loan request',
      spec: 'x.2',
      method: 'PATCH',
      path: '/api/v1/loan_request/:id/decline',
      pathParams: ['id'],
      productId: true,
      query: {},
      body: [{ name: 'reason', kind: 'text', required: true, maxLength: 500, help: 'why it is declined' }],
      check: 'loan show :id',
      errors: {
        alreadyDecided: {
          http: 400,
          status: 'error',
          message: 'The loan request is already decided',
          when: 'the loan request was already approved or declined',
        },
      },
      reply: { data: 'loanRequest' },
      verb: 'loan decline',
    },
    {
      key: 'disburseLoanRequest',
      summary: 'Record that an approved loan was paid out',
      spec: 'x.3',
      method: 'POST',
      path: '/api/v1/loan_request/:id/disburse',
      pathParams: ['id'],
      productId: true,
      query: {},
      body: [{ name: 'disbursement_reference', kind: 'text', required: true, maxLength: 64, help: 'the transfer' }],
      check: 'loan show :id',
      errors: { notApproved: NOT_APPROVED },
      reply: { data: 'loanRequest' },
      verb: 'loan disburse',
    },
    {
      key: 'getRepayments',
      summary: 'List the instalments of an approved loan',
      spec: 'x.4',
      method: 'GET',
      path: '/api/v1/loan_request/:id/repayments',
      pathParams: ['id'],
      productId: true,
      query: {},
      errors: { notApproved: NOT_APPROVED },
      reply: { data: 'instalment[]' },
      verb: 'loan repayments',
    },
  ];
  return { LOAN_REQUEST_OPERATIONS: [...LOAN_REQUEST_OPERATIONS, ...extra] };
});

// The state table: two stages (one marked by a field, one by a timestamp) and the new rows.
vi.mock('../../src/contract/table/stages.js', async (importOriginal) => {
  const table = await importOriginal<typeof import('../../src/contract/table/stages.js')>();
  return {
    STAGE_ROWS: [
      ...table.STAGE_ROWS,
      {
        name: 'disbursed',
        words: 'disbursed',
        help: 'paid out',
        marks: [{ timestamp: 'disbursed_at' }],
        progress: 'disbursed',
      },
      { name: 'declined', words: 'declined', help: 'declined', marks: [{ field: 'lender_status', value: 'declined' }] },
    ],
    OPERATION_STAGES: {
      ...table.OPERATION_STAGES,
      getDecision: { from: 'any stage' },
      declineLoanRequest: { from: ['created', 'waiting'], refusal: 'alreadyDecided', to: 'declined' },
      disburseLoanRequest: { from: ['approved'], refusal: 'notApproved', to: 'disbursed' },
      getRepayments: { from: ['approved', 'disbursed'], refusal: 'notApproved' },
    },
  };
});

// The record table: the loan request's two new fields, and the new record.
vi.mock('../../src/contract/record-table.js', async (importOriginal) => {
  const records = await importOriginal<typeof import('../../src/contract/record-table.js')>();
  const { RECORDS } = records;
  const loanRequest = RECORDS.loanRequest;
  const money = { kind: 'money' } as const;
  return {
    ...records,
    RECORDS: {
      ...RECORDS,
      loanRequest: {
        ...loanRequest,
        fields: {
          ...loanRequest.fields,
          disbursed_at: { kind: 'timestamp', label: 'Disbursed', sandbox: 'or-zero' },
          disbursement_reference: { kind: 'text', optional: true, label: 'Disbursement', sandbox: 'when-set' },
        },
      },
      instalment: {
        fields: {
          number: { kind: 'number', label: 'No.' },
          due_date: { kind: 'date', label: 'Due date' },
          principal: { ...money, label: 'Principal' },
          interest: { ...money, label: 'Interest' },
          total: { ...money, label: 'Total' },
          balance: { ...money, label: 'Balance' },
        },
        table: { noun: 'instalments', list: ['number', 'due_date', 'principal', 'interest', 'total', 'balance'] },
      },
    },
  };
});

// The migration that stores the new columns.
vi.mock('../../src/sandbox/repos/migrations.js', async (importOriginal) => {
  const { MIGRATIONS } = await importOriginal<typeof import('../../src/sandbox/repos/migrations.js')>();
  return {
    MIGRATIONS: [
      ...MIGRATIONS,
      `ALTER TABLE loan_requests ADD COLUMN disbursed_at TEXT;
       ALTER TABLE loan_requests ADD COLUMN disbursement_reference TEXT;`,
    ],
  };
});

vi.mock('../../src/sandbox/handlers/index.js', async (importOriginal) => {
  const { HANDLERS } = await importOriginal<typeof import('../../src/sandbox/handlers/index.js')>();
  // The new row's key is not in the compiled table's types: refuse is called as any key would be.
  const refuse = (await import('../../src/sandbox/envelope.js')).refuse as unknown as (
    key: string,
    name: string,
  ) => Error;
  const { loanRequestJson, ok } = await import('../../src/sandbox/handlers/common.js');
  const { buildSchedule } = await import('../../src/repayment/index.js');
  const { storedRepaymentTerms } = await import('../../src/repayment/stored.js');
  type Row = Parameters<typeof storedRepaymentTerms>[0] & { id: number; lender_status: string; approved_at: string };
  type Ctx = Parameters<typeof loanRequestJson>[0] & { loanRequest: Row & { frequency: 'monthly' }; stamp: string };
  void refuse;
  return {
    HANDLERS: {
      ...HANDLERS,
      getDecision: { run: (ctx: Ctx) => ok('Decision retrieved successfully', ctx.loanRequest.lender_status) },
      // The state table refuses a decided one and makes the move: the handler only answers.
      declineLoanRequest: { run: (ctx: Ctx) => ok('Loan request declined', loanRequestJson(ctx, ctx.loanRequest.id)) },
      disburseLoanRequest: {
        run: (ctx: Ctx & { body: { disbursement_reference: string } }) => {
          const { id } = ctx.loanRequest;
          ctx.repos.loanRequests.setColumns(id, { disbursement_reference: ctx.body.disbursement_reference }, ctx.stamp);
          return ok('Loan request disbursed', loanRequestJson(ctx, id));
        },
      },
      getRepayments: {
        run: (ctx: Ctx) => {
          const lr = ctx.loanRequest;
          const terms = storedRepaymentTerms(lr, lr.approved_at, lr.frequency);
          return ok('Repayments retrieved successfully', terms && buildSchedule(terms).instalments);
        },
      },
    },
  };
});

// biome-ignore lint/suspicious/noExplicitAny: the new rows' keys are not in the compiled table's types
const key = (name: string) => name as any;
const MOCKED = [
  '../../src/contract/table/loan-requests.js',
  '../../src/contract/table/stages.js',
  '../../src/contract/record-table.js',
  '../../src/sandbox/repos/migrations.js',
  '../../src/sandbox/handlers/index.js',
];

/** The program's modules, loaded after the mocks. */
async function load() {
  vi.resetModules();
  return {
    ...(await import('../../src/completion/spec.js')),
    ...(await import('../../src/contract/checks.js')),
    ...(await import('../../src/contract/operations.js')),
    ...(await import('../../src/deps.js')),
    ...(await import('../../src/program.js')),
    ...(await import('../../src/sandbox/openapi.js')),
    ...(await import('../../src/sandbox/openapi-example-flow.js')),
    ...(await import('../helpers/fake-io.js')),
    ...(await import('../helpers/run-cli.js')),
    ...(await import('../helpers/sandbox.js')),
  };
}

let m: Awaited<ReturnType<typeof load>>;
let sandbox: CliSandbox;

beforeAll(async () => {
  m = await load();
  sandbox = await m.cliSandbox();
});
afterAll(async () => {
  await sandbox?.close();
  for (const path of MOCKED) vi.doUnmock(path);
  vi.resetModules();
});

describe('an operation added as CONTRIBUTING.md says', () => {
  it('is a CLI verb with its arguments, flags, help, example and completion', async () => {
    const program = await m.buildWholeProgram(m.createDeps({ io: m.fakeIo(), env: {} }));
    const loan = program.commands.find((command) => command.name() === 'loan');
    const decline = loan?.commands.find((command) => command.name() === 'decline');
    expect(decline?.description()).toBe('Decline a loan request');
    expect(decline?.registeredArguments.map((argument) => argument.name())).toEqual(['id']);
    expect(decline?.options.map((option) => option.long)).toEqual(['--product', '--reason', '--data']);
    expect(decline?.options.find((option) => option.long === '--reason')?.description).toBe(
      'why it is declined (at most 500 characters)',
    );
    const help = decline?.helpInformation() ?? '';
    expect(help).toContain('Usage: loanctl loan decline [options] <id>');

    const spec = m.completionSpec(program);
    const loanSpec = spec.root.commands.find((command) => command.name === 'loan');
    const completed = loanSpec?.commands.find((command) => command.name === 'decline');
    expect(completed?.options.map((option) => option.long)).toContain('--reason');
    expect(loanSpec?.commands.map((command) => command.name)).toContain('decision');
    expect(m.API_METHODS).toContain('PATCH');
    expect(m.checkCommand('declineLoanRequest', { params: { id: 7 }, productId: 3 })).toBe(
      'loanctl loan show 7 --product 3',
    );
    expect(m.sampleBody(key('declineLoanRequest'), 0)).toEqual({ reason: expect.any(String) });
  });

  it('runs end to end: the sandbox routes and validates it, the verb sends it and prints the reply', async () => {
    const { loanRequestId } = await m.seedLoanRequest(sandbox.app, sandbox.org);
    const id = String(loanRequestId);

    const tooLong = await sandbox.run(['loan', 'decline', id, '--reason', 'x'.repeat(501)]);
    expect(tooLong.exitCode).toBe(2);
    expect(tooLong.stderr).toMatch(/reason must be at most 500 characters\. Fix --reason/);

    const refused = await m.call(sandbox.app, key('declineLoanRequest'), {
      key: sandbox.api_key,
      params: { id: loanRequestId },
      productId: sandbox.product_id,
      body: { reason: '' },
    });
    expect(refused.http).toBe(400);
    expect(refused.json.message).toMatch(/^Invalid fields: reason/);

    const decision = await sandbox.run(['loan', 'decision', id, '-o', 'json']);
    expect(decision.exitCode, decision.stderr).toBe(0);
    expect(decision.json()).toBe('saved');

    const declined = await sandbox.run(['loan', 'decline', id, '--reason', 'income not verified', '-o', 'json']);
    expect(declined.exitCode, declined.stderr).toBe(0);
    expect(declined.json()).toMatchObject({ id: loanRequestId });

    await m.call(sandbox.app, 'approveLoanRequest', {
      key: sandbox.api_key,
      params: { id: loanRequestId },
      productId: sandbox.product_id,
      query: { action: 'approve' },
      body: m.sampleBody('approveLoanRequest', 0),
    });
    const again = await sandbox.run(['loan', 'decline', id, '--reason', 'too late']);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('The loan request is already decided');
  });

  it('is in the OpenAPI document with its body, its length rule and its own error reply', () => {
    // biome-ignore lint/suspicious/noExplicitAny: the document is walked loosely; redocly checks its shape elsewhere
    const doc = m.openApiDocument({ serverUrl: 'http://127.0.0.1:4010', version: '0' }) as Record<string, any>;
    const decline = doc.paths['/api/v1/loan_request/{id}/decline']?.patch;
    expect(decline.operationId).toBe('declineLoanRequest');
    expect(decline.requestBody.content['application/json'].schema.properties.reason).toMatchObject({
      type: 'string',
      maxLength: 500,
    });
    expect(decline.responses['400'].description).toContain('the loan request was already approved or declined');
    expect(decline.responses['400'].content['application/json'].examples.alreadyDecided.value).toEqual({
      status: 'error',
      message: 'The loan request is already decided',
    });
    expect(doc.paths['/api/v1/loan_request/{id}/decision']?.get.summary).toBe('Get the decision on a loan request');
  });

  it('has its OpenAPI success examples recorded from the sandbox, with no journey step written for it', async () => {
    // What `npm run openapi-examples` records and stores; until it is run, the stored examples
    // lack the new operations and test/sandbox/openapi-examples.test.ts fails, saying to run it.
    const examples: Record<string, { data?: unknown }> = await m.recordSuccessExamples();
    const approved = examples.approveLoanRequest?.data as { id: number; lender_status: string };
    expect(approved.lender_status).toBe('approved');
    // The read runs after every move, on the journey's loan request.
    expect(examples.getDecision).toEqual({
      status: 'success',
      message: 'Decision retrieved successfully',
      data: 'approved',
    });
    // The move cannot start from approved (its state-table row says so): it gets a loan request of its own.
    expect(examples.declineLoanRequest).toMatchObject({
      status: 'success',
      message: 'Loan request declined',
      data: { lender_status: 'declined', purpose: 'Shop stock' },
    });
    expect(examples.declineLoanRequest?.data).not.toMatchObject({ id: approved.id });
    // The later move runs on the journey's approved loan request, the read that needs it after it.
    expect(examples.disburseLoanRequest?.data).toMatchObject({ id: approved.id, lender_status: 'approved' });
    expect(examples.getRepayments?.data).toEqual(expect.arrayContaining([expect.objectContaining({ number: 1 })]));
  });
});

describe('a move that starts at a later stage, stores a new column and adds a stage (disburse)', () => {
  it('is refused before approval with its own reply; once approved it stores the reference and the new stage shows everywhere', async () => {
    const { loanRequestId } = await m.seedLoanRequest(sandbox.app, sandbox.org);
    const id = String(loanRequestId);
    const early = await sandbox.run(['loan', 'disburse', id, '--disbursement-reference', 'TRF-1']);
    expect(early.exitCode).toBe(1);
    expect(early.stderr).toContain('The loan request is not approved');

    const approve = await sandbox.run(['loan', 'approve', id, ...approvalFlags(), '--yes', '--allow-unsubmitted']);
    expect(approve.exitCode, approve.stderr).toBe(0);
    const paid = await sandbox.run(['loan', 'disburse', id, '--disbursement-reference', 'TRF-1', '-o', 'json']);
    expect(paid.exitCode, paid.stderr).toBe(0);
    expect(paid.json()).toMatchObject({ id: loanRequestId, disbursement_reference: 'TRF-1' });
    expect(paid.json<{ disbursed_at: string }>().disbursed_at).not.toMatch(/^0001/);

    // The stage is one entry of the state table: filters, waits and progress follow it.
    const listed = await sandbox.run(['loan', 'list', '--stage', 'disbursed', '-o', 'json']);
    expect(listed.json<{ id: number }[]>().map((loan) => loan.id)).toEqual([loanRequestId]);
    expect((await sandbox.run(['loan', 'wait', id, '--until', 'disbursed'])).exitCode).toBe(0);
    const progress = async () => (await sandbox.run(['loan', 'progress', id, '-o', 'json'])).json();
    expect(await progress()).toBe('disbursed');
    const shown = await sandbox.run(['loan', 'show', id, '-o', 'json']);
    expect(shown.json()).toMatchObject({ loan_request: { disbursement_reference: 'TRF-1' } });

    // Approving again (any stage may) changes the terms, not the later stage or its marker.
    const again = await sandbox.run(['loan', 'approve', id, ...approvalFlags(), '--yes', '--reapprove']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(await progress()).toBe('disbursed');
    const still = await sandbox.run(['loan', 'list', '--stage', 'disbursed', '-o', 'json']);
    expect(still.json<{ id: number }[]>().map((loan) => loan.id)).toEqual([loanRequestId]);
  });
});

describe('a read that needs a stage and returns a new record (repayments)', () => {
  it('is refused before approval; once approved it lists the instalments as a table of the new record', async () => {
    const { loanRequestId } = await m.seedLoanRequest(sandbox.app, sandbox.org);
    const id = String(loanRequestId);
    const early = await sandbox.run(['loan', 'repayments', id]);
    expect(early.exitCode).toBe(1);
    expect(early.stderr).toContain('The loan request is not approved');

    const approve = await sandbox.run(['loan', 'approve', id, ...approvalFlags(), '--yes', '--allow-unsubmitted']);
    expect(approve.exitCode, approve.stderr).toBe(0);
    const listed = await sandbox.run(['loan', 'repayments', id, '-o', 'json']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    const instalments = listed.json<{ number: number; total: number }[]>();
    expect(instalments).toHaveLength(6);
    const schedule = await sandbox.run(['loan', 'schedule', id, '--frequency', 'monthly', '-o', 'json']);
    expect(schedule.json<{ instalments: unknown[] }>().instalments).toEqual(instalments);
    const table = await sandbox.run(['loan', 'repayments', id, '-o', 'table']);
    expect(table.stdout).toMatch(/NO\.\s+DUE DATE\s+PRINCIPAL/);
  });
});

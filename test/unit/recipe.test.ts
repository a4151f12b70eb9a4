/**
 * CONTRIBUTING.md#adding-an-operation, proved: the contract plus two rows it does not have — a read, and
 * a state change with one body field and an error reply of its own — the state change's move in
 * the state table, and a sandbox handler for each, nothing else. From them alone come the CLI's
 * verbs (arguments, flags, help, examples), their completion, the sandbox's routes with validation
 * and envelope, the OpenAPI paths and success examples, the check command, `loanctl api`'s methods
 * and the sample bodies of the tests.
 *
 * The rows are added to the real table (vi.mock of the file of the loan requests' rows, keeping
 * every row of the original), the move to the real state table, and the handlers to the real
 * handler map: what CONTRIBUTING.md tells a contributor to write, and only that. Workers run several files
 * without reloading modules (vitest.config.ts `isolate: false`), so this file loads the program afresh after the mocks
 * (vi.resetModules, then import()) and leaves the real modules for the files after it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CliSandbox } from '../helpers/run-cli.js';

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
  ];
  return { LOAN_REQUEST_OPERATIONS: [...LOAN_REQUEST_OPERATIONS, ...extra] };
});

vi.mock('../../src/contract/states.js', async (importOriginal) => {
  const states = await importOriginal<typeof import('../../src/contract/states.js')>();
  const decline = {
    operation: 'declineLoanRequest',
    from: ['created', 'waiting'],
    to: 'declined',
    writes: { lender_status: 'declined' },
  };
  return { ...states, TRANSITIONS: [...states.TRANSITIONS, decline] };
});

vi.mock('../../src/sandbox/handlers/index.js', async (importOriginal) => {
  const { HANDLERS } = await importOriginal<typeof import('../../src/sandbox/handlers/index.js')>();
  // The new row's key is not in the compiled table's types: refuse is called as any key would be.
  const refuse = (await import('../../src/sandbox/envelope.js')).refuse as unknown as (
    key: string,
    name: string,
  ) => Error;
  const { loanRequestJson, ok } = await import('../../src/sandbox/handlers/common.js');
  type Ctx = Parameters<typeof loanRequestJson>[0] & { loanRequest: { id: number; lender_status: string } };
  return {
    HANDLERS: {
      ...HANDLERS,
      getDecision: { run: (ctx: Ctx) => ok('Decision retrieved successfully', ctx.loanRequest.lender_status) },
      declineLoanRequest: {
        run: (ctx: Ctx) => {
          if (ctx.loanRequest.lender_status === 'approved') throw refuse('declineLoanRequest', 'alreadyDecided');
          return ok('Loan request declined', loanRequestJson(ctx, ctx.loanRequest.id));
        },
      },
    },
  };
});

// biome-ignore lint/suspicious/noExplicitAny: the new rows' keys are not in the compiled table's types
const key = (name: string) => name as any;
const TABLE = '../../src/contract/table/loan-requests.js';
const STATE_TABLE = '../../src/contract/states.js';
const HANDLER_MAP = '../../src/sandbox/handlers/index.js';

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
  vi.doUnmock(TABLE);
  vi.doUnmock(STATE_TABLE);
  vi.doUnmock(HANDLER_MAP);
  vi.resetModules();
});

describe('an operation added as CONTRIBUTING.md says', () => {
  it('is a CLI verb with its arguments, flags, help, example and completion', () => {
    const program = m.buildProgram(m.createDeps({ io: m.fakeIo(), env: {} }));
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
      data: { lender_status: 'saved', purpose: 'Shop stock' },
    });
    expect(examples.declineLoanRequest?.data).not.toMatchObject({ id: approved.id });
  });
});

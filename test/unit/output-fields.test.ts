/**
 * `--fields` is checked once, against the operation's reply schema, before anything is sent — for
 * reads and writes alike — and the format is chosen in one place, where an unknown one is exit 2.
 * Through the real program in-process (runCli), against the in-process sandbox, or against a
 * real scripted HTTP server where the point is that no request reached it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoanRequest } from '../../src/contract/schemas.js';
import { ExitCode, UsageError } from '../../src/errors.js';
import { render } from '../../src/output/render.js';
import { borrower } from '../helpers/cli.js';
import { fakeIo } from '../helpers/fake-io.js';
import { type CliSandbox, cliSandbox, isolatedCliEnv, runCli } from '../helpers/run-cli.js';
import { json, type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';

let sandbox: CliSandbox;
let server: ScriptedServer;
const email = 'fields@example.com';

beforeAll(async () => {
  sandbox = await cliSandbox();
  server = await scriptedServer();
  const created = await sandbox.run(['user', 'create', ...borrower(email), '--password-stdin'], { stdin: 'pw' });
  expect(created.exitCode, created.stderr).toBe(0);
});

afterAll(async () => {
  await sandbox?.close();
  await server?.close();
});

async function loanCount(): Promise<number> {
  const list = await sandbox.run(['loan', 'list', '--all', '--fields', 'id']);
  expect(list.exitCode, list.stderr).toBe(0);
  return list.json<unknown[]>().length;
}

describe('--fields names come from the reply schema, not from the rows that came back', () => {
  it('loan list --fields approved_by_id works on a product where no loan is approved', async () => {
    const loan = await sandbox.run(['loan', 'create', '--user', email, '--amount', '1000', '--purpose', 'Stock']);
    expect(loan.exitCode, loan.stderr).toBe(0);
    for (const format of ['json', 'table', 'csv']) {
      const list = await sandbox.run(['loan', 'list', '--fields', 'id,approved_by_id', '-o', format]);
      expect(list.exitCode, list.stderr).toBe(0);
    }
    const list = await sandbox.run(['loan', 'list', '--fields', 'id,approved_by_id']);
    expect(list.json()).toEqual([{ id: loan.json<LoanRequest>().id, approved_by_id: null }]);
  });

  it('an unknown field on a write is exit 2 naming the valid ones, and no loan request is created', async () => {
    const before = await loanCount();
    const args = ['loan', 'create', '--user', email, '--amount', '1000', '--purpose', 'Stock', '--fields', 'id,nope'];
    const result = await sandbox.run(args);
    expect(result.exitCode).toBe(ExitCode.usage);
    expect(result.stderr).toContain('--fields: unknown field "nope"; nothing was sent.');
    expect(result.stderr).toMatch(/Valid fields: id, fullname, amount, .*approved_by_id/);
    expect(result.stdout).toBe('');
    expect(await loanCount()).toBe(before);
  });

  it("loan show keeps its composite keys and takes the loan request's own", async () => {
    const id = String((await sandbox.run(['loan', 'list', '--fields', 'id'])).json<{ id: number }[]>()[0]?.id);
    const shown = await sandbox.run(['loan', 'show', id, '--fields', 'loan_request.status,bank_details,status']);
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(shown.json()).toEqual({ loan_request: { status: 'saved' }, bank_details: [], status: 'saved' });
  });

  it('a plain value has its one name; loan delete has the two it prints', async () => {
    const exists = await sandbox.run(['user', 'exists', '--email', email, '--fields', 'exists', '-o', 'csv']);
    expect(exists.stdout).toBe('exists\ntrue\n');
    const unknown = await sandbox.run(['loan', 'delete', '1', '--yes', '--fields', 'status']);
    expect(unknown.exitCode).toBe(ExitCode.usage);
    expect(unknown.stderr).toContain('id, deleted');
  });
});

describe('reads check --fields before the request too', () => {
  const reads = [
    ['loan', 'list'],
    ['loan', 'list', '--all'],
    ['loan', 'show', '7'],
    ['user', 'list'],
    ['user', 'list', '--all'],
    ['user', 'exists', '--email', 'a@example.com'],
    ['loan', 'banks', '7'],
    ['loan', 'guarantors', '7'],
    ['loan', 'employment', '7'],
    ['loan', 'progress', '7'],
  ];
  it.each(reads.map((argv) => [argv.join(' '), argv]))(
    '%s --fields nope: exit 2, nothing sent',
    async (_name, argv) => {
      server.script((_req, res) => json(res, 200, { status: 'success', message: 'ok', data: [] }));
      const env = isolatedCliEnv({
        LOANCTL_BASE_URL: server.url,
        LOANCTL_API_KEY: 'sk_test_FIELDS_1234',
        LOANCTL_PRODUCT_ID: '1',
      });
      const result = await runCli([...(argv as string[]), '--fields', 'nope'], { env });
      expect(result.exitCode, result.stderr).toBe(ExitCode.usage);
      expect(result.stderr).toContain('--fields: unknown field "nope"; nothing was sent.');
      expect(result.stderr).toContain('Valid fields: ');
      expect(server.requests).toHaveLength(0);
    },
  );
});

describe('the format is chosen in one place', () => {
  it('an unknown format, from wherever it comes, is exit 2 naming the formats, never a table', async () => {
    const io = fakeIo();
    for (const globals of [{ output: 'xml' as never }, {}]) {
      const error = await render({ id: 1 }, { format: 'yaml' as never }, { io, env: {}, globals }).catch((e) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).toBe('--output: "yaml" is not a format.');
      expect(error.hint).toBe('Use one of: table, json, ndjson, csv, xlsx.');
    }
    const fromGlobals = await render({ id: 1 }, {}, { io, env: {}, globals: { output: 'xml' as never } }).catch(
      (e) => e,
    );
    expect(fromGlobals.exitCode).toBe(ExitCode.usage);
    expect(io.stdout.text()).toBe('');
  });
});

/**
 * `--jq EXPR`, in-process against the sandbox: a real jq (jq-web) over what a command prints as
 * JSON, strings raw; a list walk (`--all`) is one stream of records; a bad expression is exit 2
 * before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoanRequest } from '../../src/contract/schemas.js';
import { borrower } from '../helpers/cli.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';

let sandbox: CliSandbox;
const ids: number[] = [];

beforeAll(async () => {
  sandbox = await cliSandbox();
  const made = await sandbox.run(['user', 'create', ...borrower('ada.jq@example.com'), '--password-stdin'], {
    stdin: 'pw',
  });
  expect(made.exitCode, made.stderr).toBe(0);
  for (const amount of ['1000', '200000', '3000', '400000']) {
    const created = await sandbox.run([
      'loan',
      'create',
      '--user',
      'ada.jq@example.com',
      '--amount',
      amount,
      '--purpose',
      `p ${amount}`,
    ]);
    expect(created.exitCode, created.stderr).toBe(0);
    ids.push(created.json<LoanRequest>().id);
  }
});

afterAll(async () => {
  await sandbox?.close();
});

describe('--jq', () => {
  it('filters a record and prints strings raw, as jq -r', async () => {
    const result = await sandbox.run(['loan', 'show', String(ids[1]), '--jq', '.loan_request | .purpose, .amount']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('p 200000\n200000\n');
  });

  it('a list walk is one stream: each record is one jq input, across pages', async () => {
    const result = await sandbox.run([
      'loan',
      'list',
      '--all',
      '--limit',
      '1',
      '--jq',
      'select(.amount > 100000) | .id',
    ]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n').map(Number).sort()).toEqual([ids[1], ids[3]].sort());
  });

  it('on a terminal too it prints what jq prints, not a table', async () => {
    const result = await sandbox.run(['loan', 'list', '--jq', 'length'], { tty: true });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('4');
  });

  it('loanctl status takes it like every command', async () => {
    const result = await sandbox.run(['status', '--jq', '.queue.waiting']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('0\n');
  });

  it("a bad expression is exit 2 with jq's words, and nothing is sent", async () => {
    // A server that is not there: had anything been sent, this would be a network error (exit 5).
    const result = await sandbox.run(['loan', 'list', '--jq', '.[] |'], {
      env: { LOANCTL_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^loanctl: --jq is not a jq expression: syntax error, unexpected end of file/m);
    expect(result.stdout).toBe('');
  });

  it("an error while filtering is exit 2 with jq's words", async () => {
    const result = await sandbox.run(['loan', 'list', '--jq', '.x']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--jq failed on the output: Cannot index array with string "x".');
  });

  it('with --raw it filters the envelope as received', async () => {
    const result = await sandbox.run(['loan', 'show', String(ids[0]), '--raw', '--jq', '.loan_request.status']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('success\n');
  });

  it('does not mix with another format or --fields', async () => {
    const csv = await sandbox.run(['loan', 'list', '-o', 'csv', '--jq', '.']);
    expect(csv.exitCode).toBe(2);
    expect(csv.stderr).toContain('--jq filters JSON output, so it does not mix with -o csv.');
    const fields = await sandbox.run(['loan', 'list', '--fields', 'id', '--jq', '.']);
    expect(fields.exitCode).toBe(2);
  });
});

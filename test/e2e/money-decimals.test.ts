/**
 * Money has two decimals: an amount with more (`12.345`) is refused before anything is sent — in
 * every flag that takes money, in `--data`, and in every row of a bulk file (that row fails,
 * naming its borrower; the others go on). In-process against the sandbox, `--debug` showing that no
 * request left.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoanRequest } from '../../src/contract/schemas.js';
import { borrower } from '../helpers/cli.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';

let sandbox: CliSandbox;
let loanId: string;
const email = 'kobo@example.com';
const dir = mkdtempSync(join(tmpdir(), 'loanctl-money-'));

const TERMS = [
  '--rate',
  '5',
  '--tenure',
  '3',
  '--tenured-in',
  'months',
  '--rate-type',
  'simple',
  '--frequency',
  'monthly',
];

beforeAll(async () => {
  sandbox = await cliSandbox();
  expect(
    (await sandbox.run(['user', 'create', ...borrower(email), '--password-stdin'], { stdin: 'pw' })).exitCode,
  ).toBe(0);
  const loan = await sandbox.run(['loan', 'create', '--user', email, '--amount', '1000', '--purpose', 'Stock']);
  loanId = String(loan.json<LoanRequest>().id);
});

afterAll(async () => {
  await sandbox?.close();
});

describe('an amount with more than two decimals is exit 2, one line, nothing sent', () => {
  const cases: Array<[string, () => string[], string]> = [
    [
      'loan create --amount',
      () => ['loan', 'create', '--user', email, '--amount', '12.345', '--purpose', 'x'],
      '--amount',
    ],
    [
      'loan create --data',
      () => ['loan', 'create', '--user', email, '--data', '{"amount": 12.345, "purpose": "x"}'],
      'amount',
    ],
    [
      'loan approve --approved-amount',
      () => ['loan', 'approve', loanId, '--approved-amount', '12.345', ...TERMS, '--yes'],
      '--approved-amount',
    ],
    ['loan schedule --amount', () => ['loan', 'schedule', '--amount', '1,000.001', ...TERMS], '--amount'],
    ['loan list --min-amount', () => ['loan', 'list', '--min-amount', '12.345'], '--min-amount'],
    ['loan list --max-amount', () => ['loan', 'list', '--max-amount', '0.001'], '--max-amount'],
  ];
  for (const [name, argv, flag] of cases) {
    it(name, async () => {
      const result = await sandbox.run([...argv(), '--debug']);
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr).toContain(flag);
      expect(result.stderr).toMatch(/two decimals|at least 0\.01/);
      expect(result.stderr).not.toContain('debug: >');
      expect(result.stderr.split('\n').filter((line) => line.startsWith('loanctl:'))).toHaveLength(1);
    });
  }
});

describe('in a bulk file the row with too many decimals fails, naming its borrower; the others are sent', () => {
  for (const [format, text] of [
    ['csv', `user,amount,purpose\n${email},12.345,Stock\n${email},12.34,Stock\n`],
    [
      'ndjson',
      `{"user":"${email}","amount":12.345,"purpose":"Stock"}\n{"user":"${email}","amount":12.34,"purpose":"Stock"}\n`,
    ],
  ] as const) {
    it(format, async () => {
      const file = join(dir, `loans.${format}`);
      writeFileSync(file, text);
      const result = await sandbox.run(['loan', 'create', '--from', file]);
      expect(result.exitCode).toBe(1);
      const rows = result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(rows[0]).toMatchObject({ row: 1, status: 'error', email });
      expect(rows[0].message).toMatch(/amount .*two decimals.*Not sent/);
      expect(rows[1]).toMatchObject({ row: 2, status: 'success' });
    });
  }
});

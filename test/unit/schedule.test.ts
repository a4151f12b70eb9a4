/**
 * `loanctl loan schedule` run in-process through main() (the real commander tree and parsers) with
 * captured io and no API key or network, checked against the worked example of docs/guide.md#repayment-schedules:
 * 100,000 at 5% a month for 3 months, monthly, from 1 January 2025. Also the preview that
 * `loan approve --preview` shows (runCli against the in-process sandbox: the real client).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BodyOf } from '../../src/contract/fields.js';

type ApprovalTerms = BodyOf<'approveLoanRequest'>;

import { scheduleTerms } from '../../src/commands/loan/schedule/run.js';
import { createDeps } from '../../src/deps.js';
import { main } from '../../src/main.js';
import { describeTerms, renderSchedulePreview, summariseTerms } from '../../src/output/schedule.js';
import { previewApproval } from '../../src/output/schedule-preview.js';
import { buildSchedule } from '../../src/repayment/index.js';
import { fakeIo } from '../helpers/fake-io.js';
import { type CliSandbox, cliSandbox, isolatedCliEnv, type RunCliOptions, runCli } from '../helpers/run-cli.js';
import { call, seedLoanRequest } from '../helpers/sandbox.js';

const NOW = new Date('2025-01-01T09:30:00Z');
const TERMS = [
  '--amount',
  '100000',
  '--rate',
  '5',
  '--tenure',
  '3',
  '--tenured-in',
  'months',
  '--frequency',
  'monthly',
  '--start',
  '2025-01-01',
];

async function schedule(args: string[], options: { tty?: boolean } = {}) {
  const io = fakeIo({ tty: options.tty ?? false });
  // No key, no base URL, no config dir with profiles: the command must need none of them.
  const deps = createDeps({ io, env: { LOANCTL_CONFIG_DIR: '/nonexistent/loanctl-test' }, now: () => NOW });
  const code = await main(['loan', 'schedule', ...args], deps);
  return { code, stdout: io.stdout.text(), stderr: io.stderr.text() };
}

describe('loan schedule: the worked example', () => {
  it('simple-interest as JSON (the default off a terminal): the Schedule object', async () => {
    const result = await schedule([...TERMS, '--rate-type', 'simple-interest']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({
      instalments: [
        { number: 1, due_date: '2025-02-01', principal: 33333.33, interest: 5000, total: 38333.33, balance: 66666.67 },
        { number: 2, due_date: '2025-03-01', principal: 33333.33, interest: 5000, total: 38333.33, balance: 33333.34 },
        { number: 3, due_date: '2025-04-01', principal: 33333.34, interest: 5000, total: 38333.34, balance: 0 },
      ],
      total_principal: 100000,
      total_interest: 15000,
      total_repayment: 115000,
      maturity_date: '2025-04-01',
    });
  });

  it('simple-interest as a table on a terminal: money with separators, a totals row', async () => {
    const result = await schedule([...TERMS, '--rate-type', 'simple-interest'], { tty: true });
    expect(result.code, result.stderr).toBe(0);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping the colour codes of a terminal
    const plain = result.stdout.replace(/\x1b\[[0-9;]*m/g, '');
    expect(plain).not.toBe(result.stdout); // bold headers on a terminal
    const lines = plain.split('\n');
    expect(lines[0]).toBe(
      'Loan of 100,000.00 at 5 % per month (simple interest) over 3 months, repaid monthly. Starts 2025-01-01 Wed.',
    );
    const table = lines.slice(2, 7).map((line) => line.trim().split(/\s{2,}/));
    expect(table).toEqual([
      ['NO.', 'DUE DATE', 'PRINCIPAL', 'INTEREST', 'TOTAL', 'BALANCE'],
      ['1', '2025-02-01 Sat', '33,333.33', '5,000.00', '38,333.33', '66,666.67'],
      ['2', '2025-03-01 Sat', '33,333.33', '5,000.00', '38,333.33', '33,333.34'],
      ['3', '2025-04-01 Tue', '33,333.34', '5,000.00', '38,333.34', '0.00'],
      ['Total', '100,000.00', '15,000.00', '115,000.00'],
    ]);
    expect(plain).toContain(
      '3 instalments; the last is due 2025-04-01 Tue. Repayment 115,000.00, of which interest 15,000.00.',
    );
    // Money is right-aligned.
    expect(lines[3]).toMatch(/ {2}38,333\.33 {2}66,666\.67$/);
  });

  it('compound-interest as CSV: one row an instalment, values unformatted', async () => {
    const result = await schedule([...TERMS, '--rate-type', 'compound-interest', '-o', 'csv']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      [
        'number,due_date,principal,interest,total,balance',
        '1,2025-02-01,31720.86,5000,36720.86,68279.14',
        '2,2025-03-01,33306.9,3413.96,36720.86,34972.24',
        '3,2025-04-01,34972.24,1748.61,36720.85,0',
        '',
      ].join('\n'),
    );
  });

  it('compound-interest as NDJSON: one instalment a line; the totals match the guide (110,162.57)', async () => {
    const result = await schedule([...TERMS, '--rate-type', 'compound', '-o', 'ndjson']);
    const rows = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rows.map((row) => row.total)).toEqual([36720.86, 36720.86, 36720.85]);
    const json = JSON.parse((await schedule([...TERMS, '--rate-type', 'compound', '-o', 'json'])).stdout);
    expect(json.total_interest).toBe(10162.57);
    expect(json.total_repayment).toBe(110162.57);
  });

  it('fixed-amount: --rate is the interest in currency (and `fixed`, `15,000` are accepted)', async () => {
    const result = await schedule([...TERMS.map((arg) => (arg === '5' ? '15,000' : arg)), '--rate-type', 'fixed']);
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.instalments.map((row: { total: number }) => row.total)).toEqual([38333.33, 38333.33, 38333.34]);
    expect(json.total_repayment).toBe(115000);
  });

  it('--grace-period shifts every due date; --exclude-weekends moves Saturdays to Monday', async () => {
    const grace = JSON.parse((await schedule([...TERMS, '--rate-type', 'simple', '--grace-period', '10'])).stdout);
    expect(grace.instalments.map((row: { due_date: string }) => row.due_date)).toEqual([
      '2025-02-11',
      '2025-03-11',
      '2025-04-11',
    ]);
    const weekdays = JSON.parse((await schedule([...TERMS, '--rate-type', 'simple', '--exclude-weekends'])).stdout);
    expect(weekdays.instalments.map((row: { due_date: string }) => row.due_date)).toEqual([
      '2025-02-03',
      '2025-03-03',
      '2025-04-01',
    ]);
    expect(weekdays.total_repayment).toBe(115000);
  });

  it('weekly (what operators type) is the API’s weekely; the start defaults to today (UTC)', async () => {
    const args = ['--amount', '1000', '--rate', '0', '--tenure', '2', '--tenured-in', 'weeks', '--rate-type', 'simple'];
    const result = await schedule([...args, '--frequency', 'weekly']);
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.instalments.map((row: { due_date: string }) => row.due_date)).toEqual(['2025-01-08', '2025-01-15']);
    expect(json.total_repayment).toBe(1000);
  });

  it('--fields picks the table columns; an unknown field is a usage error', async () => {
    const result = await schedule([...TERMS, '--rate-type', 'simple', '-o', 'table', '--fields', 'due_date,total']);
    expect(result.code, result.stderr).toBe(0);
    expect(
      result.stdout
        .split('\n')[2]
        ?.trim()
        .split(/\s{2,}/),
    ).toEqual(['DUE DATE', 'TOTAL']);
    const bad = await schedule([...TERMS, '--rate-type', 'simple', '-o', 'table', '--fields', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Valid fields: number, due_date, principal, interest, total, balance');
  });
});

describe('loan schedule: invalid terms are exit 2 with every problem on one line, naming flags', () => {
  it('reports parse errors and the module’s limits together', async () => {
    const result = await schedule([
      '--amount',
      'abc',
      '--rate',
      '5',
      '--tenure',
      '2000',
      '--tenured-in',
      'months',
      '--frequency',
      'hourly',
      '--grace-period',
      '4000',
    ]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('loanctl: Invalid repayment terms: ');
    expect(result.stderr).toContain('--amount must be a positive amount written with digits (got "abc")');
    expect(result.stderr).toContain('--tenure must be at most 1200 months (100 years)');
    expect(result.stderr).toContain('--rate-type is required');
    expect(result.stderr).toContain('--frequency must be one of daily, weekly, bi-weekly, monthly (got "hourly")');
    expect(result.stderr).toContain('--grace-period must be at most 3650 days');
    expect(result.stderr).not.toMatch(/\b(principal|tenure|grace_period):/);
    expect(result.stderr).toContain('For example: loanctl loan schedule --amount 100000');
  });

  it('refuses a schedule that would run past 9999-12-31, and keeps one that ends on it', async () => {
    const terms = [
      '--amount',
      '1000',
      '--rate',
      '5',
      '--tenure',
      '3',
      '--tenured-in',
      'months',
      '--rate-type',
      'simple',
    ];
    const past = await schedule([...terms, '--frequency', 'monthly', '--start', '9999-11-15']);
    expect(past.code).toBe(2);
    expect(past.stderr).toContain('--start the schedule would run past 9999-12-31');
    expect(past.stdout).toBe('');
    const last = await schedule([...terms, '--frequency', 'monthly', '--start', '9999-09-30', '-o', 'json']);
    expect(last.code).toBe(0);
    expect(JSON.parse(last.stdout).instalments.at(-1).due_date).toBe('9999-12-30');
  });

  it('--annual-rate is the yearly rate: ÷ 12 a month, ÷ 52 a week; with --rate it is exit 2', async () => {
    const common = [
      '--amount',
      '100000',
      '--tenure',
      '3',
      '--rate-type',
      'simple',
      '--frequency',
      'monthly',
      '-o',
      'json',
    ];
    const yearly = await schedule([...common, '--tenured-in', 'months', '--annual-rate', '60']);
    const monthly = await schedule([...common, '--tenured-in', 'months', '--rate', '5']);
    expect(yearly.code, yearly.stderr).toBe(0);
    expect(JSON.parse(yearly.stdout)).toEqual(JSON.parse(monthly.stdout));
    expect(
      scheduleTerms(
        { amount: '1', annualRate: '26', tenure: '1', tenuredIn: 'weeks', rateType: 'simple', frequency: 'weekly' },
        NOW,
      ).rate,
    ).toBe(0.5);
    const both = await schedule([...common, '--tenured-in', 'months', '--rate', '5', '--annual-rate', '60']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--rate and --annual-rate cannot be used together.');
  });

  it('names every missing flag, in the order of the command', () => {
    expect(() => scheduleTerms({}, NOW)).toThrow(
      'Invalid repayment terms: --amount is required; --rate is required; --tenure is required; ' +
        '--tenured-in is required; --rate-type is required; --frequency is required.',
    );
  });

  it('rejects a tenure of 0, a negative rate, and an impossible date', async () => {
    const result = await schedule([
      '--amount',
      '100',
      '--rate',
      '-1',
      '--tenure',
      '0',
      '--tenured-in',
      'days',
      '--rate-type',
      'simple',
      '--frequency',
      'daily',
      '--start',
      '2025-02-30',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--rate must be a number of 0 or more');
    expect(result.stderr).toContain('--tenure must be at least 1');
    expect(result.stderr).toContain('--start must be a real date written yyyy-mm-dd');
  });

  it('--help has the description and examples', async () => {
    const result = await schedule(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Compute a repayment schedule offline');
    expect(result.stdout).toContain('Examples:');
    expect(result.stdout).toContain('--exclude-weekends');
  });
});

describe('the terms in one phrase (schedule header, approval question)', () => {
  const base = {
    principal: 45000,
    rate: 5,
    tenure: 3,
    tenured_in: 'months',
    rate_type: 'simple-interest',
    frequency: 'monthly',
    start: new Date('2025-01-01T00:00:00Z'),
  } as const;

  it('names the grace period and weekdays-only when set, and only then', () => {
    expect(summariseTerms(base)).toBe('45,000.00 at 5 % per month (simple interest) over 3 months, repaid monthly');
    expect(summariseTerms({ ...base, grace_period: 10, exclude_weekends: true })).toBe(
      "45,000.00 at 5 % per month (simple interest) over 3 months, repaid monthly, 10 days' grace, weekdays only",
    );
    expect(summariseTerms({ ...base, grace_period: 1 })).toMatch(/, repaid monthly, 1 day's grace$/);
    expect(summariseTerms({ ...base, grace_period: 0, exclude_weekends: false })).toMatch(/repaid monthly$/);
    // The schedule's first line says each once.
    expect(describeTerms({ ...base, grace_period: 10, exclude_weekends: true })).toBe(
      "Loan of 45,000.00 at 5 % per month (simple interest) over 3 months, repaid monthly, 10 days' grace, weekdays only. Starts 2025-01-01 Wed.",
    );
  });

  it('loan approve asks with them', async () => {
    const questions: string[] = [];
    const result = await runCli(
      [
        ...['loan', 'approve', '5', '--approved-amount', '45000', '--rate', '5', '--tenure', '3'],
        ...['--tenured-in', 'months', '--rate-type', 'simple-interest', '--frequency', 'monthly'],
        ...['--grace-period', '10', '--exclude-weekends', '-o', 'json'],
        // No server here: --dry-run skips reading the loan request for the review; the question is the same.
        '--dry-run',
      ],
      {
        tty: true,
        env: isolatedCliEnv({ LOANCTL_PRODUCT_ID: '7', LOANCTL_API_KEY: 'k', LOANCTL_BASE_URL: 'http://127.0.0.1:1' }),
        prompter: {
          confirm: async (question) => {
            questions.push(question);
            return false;
          },
        },
      },
    );
    expect(result.exitCode, result.stderr).toBe(130);
    expect(questions).toEqual([
      "Approve loan request 5: 45,000.00 at 5 % per month (simple interest) over 3 months, repaid monthly, 10 days' grace, weekdays only?",
    ]);
  });
});

describe('the preview of loan approve --preview', () => {
  const approval: ApprovalTerms = {
    approved_amount: 100000,
    rate: 5,
    tenure: 3,
    tenured_in: 'months',
    rate_type: 'simple-interest',
    frequency: 'monthly',
  } as ApprovalTerms;

  it('goes to stderr as a table, whatever -o says, leaving stdout for the result', async () => {
    const io = fakeIo();
    await previewApproval(approval, { io, env: {}, globals: { output: 'json' }, now: () => NOW });
    expect(io.stdout.text()).toBe('');
    expect(io.stderr.text()).toContain('Starts 2025-01-01 Wed.');
    expect(io.stderr.text()).toMatch(/Total\s+100,000\.00\s+15,000\.00\s+115,000\.00/);
  });

  it('terms the module cannot schedule give one warning line, not a failure', async () => {
    const io = fakeIo();
    await previewApproval({ ...approval, tenure: 5000 }, { io, env: {}, globals: {}, now: () => NOW });
    expect(io.stderr.text()).toBe(
      'loanctl: warning: no repayment preview: tenure: must be at most 1200 months (100 years).\n',
    );
  });

  it('renderSchedulePreview writes to the stream it is given', async () => {
    const io = fakeIo();
    const terms = {
      principal: 500,
      rate: 0,
      tenure: 1,
      tenured_in: 'months',
      rate_type: 'simple-interest',
      frequency: 'monthly',
      start: NOW,
    } as const;
    await renderSchedulePreview(buildSchedule(terms), terms, { io, env: {}, globals: {} }, io.stdout);
    expect(io.stdout.text()).toContain('Loan of 500.00 at no interest over 1 month, repaid monthly.');
    expect(io.stderr.text()).toBe('');
  });
});

describe('loan approve --preview', () => {
  let sandbox: CliSandbox;
  beforeAll(async () => {
    sandbox = await cliSandbox();
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  /** `loan approve --preview` of a new 100,000 loan request, run in-process against the sandbox. */
  async function approve(flags: string[], options: RunCliOptions = {}) {
    const { loanRequestId } = await seedLoanRequest(sandbox.app, sandbox.org, { amount: 100000 });
    const result = await sandbox.run(['loan', 'approve', String(loanRequestId), ...TERMS_FLAGS, ...flags], {
      now: () => NOW,
      ...options,
    });
    const shown = await call(sandbox.app, 'listLoanRequests', {
      key: sandbox.org.api_key,
      productId: sandbox.org.product_id,
      query: { direction: 'DESC' },
    });
    const stored = (shown.json.data as { loan_requests: Array<{ id: number; lender_status: string }> }).loan_requests;
    return { result, id: loanRequestId, lenderStatus: stored.find((row) => row.id === loanRequestId)?.lender_status };
  }
  const TERMS_FLAGS = [
    ...['--approved-amount', '100000', '--rate', '5', '--tenure', '3', '--tenured-in', 'months'],
    ...['--rate-type', 'simple-interest', '--frequency', 'monthly', '-o', 'json'],
  ];

  it('prints the schedule on stderr before asking; stdout keeps only the JSON result', async () => {
    let shownWhenAsked = '';
    let stderrOf = () => '';
    const { result, id, lenderStatus } = await approve(['--preview'], {
      tty: true,
      prompter: {
        confirm: async () => {
          shownWhenAsked = stderrOf();
          return true;
        },
      },
      onIo: (io) => {
        stderrOf = () => io.stderr.text();
      },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(shownWhenAsked).toContain('Loan of 100,000.00 at 5 % per month (simple interest) over 3 months');
    expect(shownWhenAsked).toMatch(/Total\s+100,000\.00\s+15,000\.00\s+115,000\.00/);
    expect(lenderStatus).toBe('approved');
    expect(result.json()).toMatchObject({ id, lender_status: 'approved' });
  });

  it('with --yes (a script) the preview still goes to stderr, and without --preview there is none', async () => {
    // The seeded loan request was never submitted: --yes alone does not accept that (--allow-unsubmitted).
    const withPreview = await approve(['--preview', '--yes', '--allow-unsubmitted']);
    expect(withPreview.result.exitCode, withPreview.result.stderr).toBe(0);
    expect(withPreview.result.stderr).toContain('3 instalments; the last is due 2025-04-01 Tue.');
    expect(() => withPreview.result.json()).not.toThrow();
    const without = await approve(['--yes', '--allow-unsubmitted']);
    expect(without.result.exitCode, without.result.stderr).toBe(0);
    expect(without.result.stderr).not.toContain('the last is due');
  });
});

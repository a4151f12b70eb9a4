/**
 * `loanctl loan schedule`: the flags, mapped to the options of runLoanSchedule (src/schedule/run.ts,
 * imported only when the command runs). Offline: no API key, nothing sent.
 */
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { addFieldOptions } from '../common/field-options.js';
import { examples } from '../common/help.js';

/** The repayment terms of `loan approve` that a schedule needs (all but the amount approved and the note). */
const TERMS = ['rate', 'tenure', 'tenured_in', 'rate_type', 'frequency', 'grace_period', 'exclude_weekends'] as const;

export function registerLoanScheduleCommand(loan: Command, deps: Deps): void {
  addFieldOptions(
    loan
      .command('schedule')
      .description('Compute a repayment schedule offline: every instalment and the totals (no API key needed)')
      .option('--amount <n>', 'principal: the amount approved, more than 0 (100000, 100,000 or 1250.50)'),
    'approveLoanRequest',
    TERMS,
  )
    .option('--start <date>', 'the day the loan starts, yyyy-mm-dd (default: today, UTC)')
    .addHelpText(
      'after',
      `${examples(
        'loanctl loan schedule --amount 100000 --rate 5 --tenure 3 --tenured-in months --rate-type simple-interest --frequency monthly',
        'loanctl loan schedule --amount 250,000 --rate 2 --tenure 12 --tenured-in weeks --rate-type compound --frequency weekly --start 2025-01-06',
        'loanctl loan schedule --amount 50000 --rate 7500 --tenure 30 --tenured-in days --rate-type fixed-amount --frequency daily --exclude-weekends -o csv',
      )}
The rules (rates, dates, rounding) are in the README, "Repayment schedules". -o json prints the
schedule object; -o ndjson and -o csv print one instalment a line.
`,
    )
    .action(async (options) => {
      const { runLoanSchedule } = await import('../../schedule/run.js');
      await runLoanSchedule(options, deps);
    });
}

/**
 * `loanctl loan schedule`: the flags, mapped to the options of runLoanSchedule (./schedule/run.ts,
 * imported only when the command runs). Offline: no API key, nothing sent. With an ID, the
 * schedule of that approved loan request from its stored terms (./schedule/stored.ts).
 */

import { addFieldOptions } from '../common/field-options.js';
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';
import { ANNUAL_RATE_HELP, SCHEDULE_TERMS } from './schedule/flags.js';

export const loanSchedule: Verb = (loan, deps) => {
  addFieldOptions(
    loan
      .command('schedule')
      .description('Compute a repayment schedule offline: every instalment and the totals (no API key needed)')
      .option('--amount <n>', 'principal: the amount approved, more than 0 (100000, 100,000 or 1250.50)'),
    'approveLoanRequest',
    SCHEDULE_TERMS,
  )
    .option('--annual-rate <n>', ANNUAL_RATE_HELP)
    .option('--start <date>', 'the day the loan starts, yyyy-mm-dd (default: today, UTC)')
    // An approved loan request's schedule comes from the terms the API stored.
    .argument(
      '[id]',
      'an approved loan request: its stored terms, from the day it was approved (--frequency: default monthly)',
    )
    .option('--product <id>', "with an ID: the loan product (default: $LOANCTL_PRODUCT_ID, else the profile's)")
    .addHelpText(
      'after',
      `${examples(
        'loanctl loan schedule --amount 100000 --rate 5 --tenure 3 --tenured-in months --rate-type simple-interest --frequency monthly',
        'loanctl loan schedule --amount 250,000 --rate 2 --tenure 12 --tenured-in weeks --rate-type compound --frequency weekly --start 2025-01-06',
        'loanctl loan schedule --amount 50000 --rate 7500 --tenure 30 --tenured-in days --rate-type fixed-amount --frequency daily --exclude-weekends -o csv',
        'loanctl loan schedule 172 --frequency weekly',
      )}
The rules (rates, dates, rounding) are in docs/guide.md, "Repayment schedules". -o json prints the
schedule object; -o ndjson and -o csv print one instalment a line.
With an ID the terms are the loan request's own (it must be approved); the API stores no
frequency, so it is --frequency, monthly unless given (stderr says when it is assumed).
`,
    )
    .action(async (id: string | undefined, options) => {
      if (id === undefined) {
        const { runLoanSchedule } = await import('./schedule/run.js');
        return runLoanSchedule(options, deps);
      }
      const [{ loanId, resolveProduct }, stored] = await Promise.all([
        import('./common.js'),
        import('./schedule/stored.js'),
      ]);
      const loan = loanId(id);
      stored.storedScheduleFrequency(loan, options);
      await stored.runStoredSchedule(loan, await resolveProduct(options, deps), options, deps);
    });
};

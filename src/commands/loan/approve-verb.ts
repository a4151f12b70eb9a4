/** `loanctl loan approve ID`: its flags and help; the run is ./approve.ts. */

import { addFieldOptions } from '../common/field-options.js';
import { DATA_HELP, YES_HELP } from '../common/help.js';
import { productVerb, type Verb } from '../common/verb.js';
import { ANNUAL_RATE_HELP } from './schedule/flags.js';

export const loanApprove: Verb = (loan, deps) => {
  const approve = productVerb(
    loan,
    'approve',
    'Approve a loan request with terms (asks first on a terminal; elsewhere needs --yes)',
    'loanctl loan approve 172 --approved-amount 45000 --rate 5 --tenure 6 --tenured-in months --rate-type simple-interest --frequency monthly',
    'loanctl loan approve 172 --data @terms.json --yes -o json',
  ).argument('<id>', 'loan request id');
  addFieldOptions(approve, 'approveLoanRequest')
    .option('--preview', 'show the repayment schedule (as loan schedule would) before asking to confirm')
    .option('--data <json>', DATA_HELP)
    .option('-y, --yes', YES_HELP)
    .option('--annual-rate <n>', ANNUAL_RATE_HELP)
    .option('--reapprove', 'with --yes: replace the terms of a loan request that is already approved')
    .option('--allow-unsubmitted', 'with --yes: approve a loan request the borrower never submitted')
    .option('--allow-high-interest', 'with --yes: approve terms whose interest is more than the principal')
    .action(async (id, options) => {
      const { runLoanApprove } = await import('./approve.js');
      await runLoanApprove({ ...options, id }, deps);
    });
};

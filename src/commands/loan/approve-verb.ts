/** `loanctl loan approve ID` and `loan approve --from FILE`: its flags and help; the run is ./approve.ts. */

import { addBulkOptions } from '../common/bulk-options.js';
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
    'loanctl loan approve --from approvals.csv --dry-run',
    'loanctl loan approve --from approvals.csv --yes --allow-unsubmitted --failed refused.csv > results.ndjson',
  ).argument('[id]', 'loan request id (leave out with --from)');
  addBulkOptions(addFieldOptions(approve, 'approveLoanRequest'), 'loan request', 'approve one loan request')
    .option('--preview', 'show the repayment schedule (as loan schedule would) before asking to confirm')
    .option('--data <json>', DATA_HELP)
    .option('-y, --yes', YES_HELP)
    .option('--annual-rate <n>', ANNUAL_RATE_HELP)
    .option('--reapprove', 'with --yes or --from: replace the terms of a loan request that is already approved')
    .option('--allow-unsubmitted', 'with --yes or --from: approve a loan request the borrower never submitted')
    .option('--allow-high-interest', 'with --yes or --from: approve terms whose interest is more than the principal')
    .action(async (id, options) => {
      const { runLoanApprove } = await import('./approve.js');
      await runLoanApprove({ ...options, id }, deps);
    });
};

/** `loanctl loan create`: its flags and help; the run is ./create.ts. */

import { addBulkOptions } from '../common/bulk-options.js';
import { addFieldOptions } from '../common/field-options.js';
import { DATA_HELP } from '../common/help.js';
import { productVerb, type Verb } from '../common/verb.js';

export const loanCreate: Verb = (loan, deps) => {
  const create = productVerb(
    loan,
    'create',
    'Create a loan request for a borrower (by user id or e-mail)',
    'loanctl loan create --user ada@example.com --amount 50000 --purpose "Shop stock"',
    'loanctl loan create --user 12 --amount 250,000 --purpose "School fees" --product 3 -o json',
    'loanctl loan create --from loans.csv --concurrency 16 > results.ndjson',
  ).option('--user <id|email>', 'the borrower: a user id, or an e-mail looked up in the user list');
  addBulkOptions(
    addFieldOptions(create, 'createLoanRequest').option('--data <json>', DATA_HELP),
    'loan request',
  ).action(async (options) => {
    const { runLoanCreate } = await import('./create.js');
    await runLoanCreate(options, deps);
  });
};

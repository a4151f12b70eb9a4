/** `loanctl loan create`: its flags and help; the run is ./create.ts. */
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
  addFieldOptions(create, 'createLoanRequest')
    .option('--data <json>', DATA_HELP)
    .option('--from <file>', 'create one loan request per row of an NDJSON or CSV file (- for stdin); safe to re-run')
    .option('--concurrency <n>', 'with --from: rows sent at once, 1 to 64 (default 8)')
    .option('--format <ndjson|csv>', 'with --from: the file format (default: by extension, else by content)')
    // Issue 12: the rejected rows, ready to fix and run again.
    .option('--failed <file>', 'with --from: write every rejected row there, as read (CSV with its header, or NDJSON)')
    .option('--ignore-journal', 'with --from: set aside a journal that cannot be trusted and take every row as new')
    .option(
      '--strict',
      'with --from: refuse a file with a column that is no field (default: ignore it, with a warning)',
    )
    .action(async (options) => {
      const { runLoanCreate } = await import('./create.js');
      await runLoanCreate(options, deps);
    });
};

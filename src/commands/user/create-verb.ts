/** `loanctl user create`: its flags and help; the run is ./create.ts. */
import { addFieldOptions } from '../common/field-options.js';
import { DATA_HELP, examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';

export const userCreate: Verb = (user, deps) => {
  addFieldOptions(
    user.command('create').description('Create a borrower user (an e-mail that already exists is not an error)'),
    'createUser',
  )
    .option('--password-stdin', "read the borrower's password from stdin (else a masked prompt on a terminal)")
    .option('--data <json>', DATA_HELP)
    .option('--from <file>', 'create one user per row of an NDJSON or CSV file (- for stdin); see "Bulk" in the README')
    .option('--concurrency <n>', 'with --from: rows sent at once, 1 to 64 (default 8)')
    .option('--format <ndjson|csv>', 'with --from: the file format (default: by extension, else by content)')
    // Issue 12: the rejected rows, ready to fix and run again.
    .option('--failed <file>', 'with --from: write every rejected row there, as read (CSV with its header, or NDJSON)')
    .option('--ignore-journal', 'with --from: set aside a journal that cannot be trusted and take every row as new')
    .option(
      '--strict',
      'with --from: refuse a file with a column that is no field (default: ignore it, with a warning)',
    )
    .addHelpText(
      'after',
      examples(
        'loanctl user create --firstname Ada --lastname Obi --email ada@example.com --phone 08012345678 --gender female',
        'printf \'%s\' "$PASSWORD" | loanctl user create --data @ada.json --password-stdin -o json',
        'loanctl user create --from users.csv --concurrency 16 > results.ndjson',
      ),
    )
    .action(async (options) => {
      const { runUserCreate } = await import('./create.js');
      await runUserCreate(options, deps);
    });
};

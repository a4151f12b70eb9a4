/** `loanctl user create`: its flags and help; the run is ./create.ts. */

import { addBulkOptions } from '../common/bulk-options.js';
import { addFieldOptions } from '../common/field-options.js';
import { DATA_HELP, examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';

export const userCreate: Verb = (user, deps) => {
  const create = addFieldOptions(
    user.command('create').description('Create a borrower user (an e-mail that already exists is not an error)'),
    'createUser',
  )
    .option('--password-stdin', "read the borrower's password from stdin (else a masked prompt on a terminal)")
    .option('--data <json>', DATA_HELP);
  addBulkOptions(create, 'user')
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

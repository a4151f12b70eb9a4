/**
 * `loanctl user …`: borrower users. Each verb lives in its own file and is imported only when it
 * runs; this file only describes the flags and maps them to the verb's options.
 */
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { addFieldOptions } from '../common/field-options.js';
import { examples } from '../common/help.js';

export function registerUserCommands(program: Command, deps: Deps): void {
  const user = program
    .command('user')
    .description('Create borrower users, check whether one exists, list them')
    .addHelpText(
      'after',
      examples(
        'loanctl user create --firstname Ada --lastname Obi --email ada@example.com --phone 08012345678 --gender female',
        'loanctl user exists --email ada@example.com',
        'loanctl user list --all -o csv',
      ),
    );

  addFieldOptions(
    user.command('create').description('Create a borrower user (an e-mail that already exists is not an error)'),
    'createUser',
  )
    .option('--password-stdin', "read the borrower's password from stdin (else a masked prompt on a terminal)")
    .option('--data <json>', 'the request body as JSON, @file.json, or - for stdin; flags override its fields')
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

  user
    .command('exists')
    .description('Say whether a user with an e-mail exists (prints true or false, exit 0 either way)')
    .requiredOption('--email <email>', 'the e-mail to look for')
    .addHelpText(
      'after',
      examples(
        'loanctl user exists --email ada@example.com',
        'if [ "$(loanctl user exists --email ada@example.com -o json)" = true ]; then echo known; fi',
      ),
    )
    .action(async (options) => {
      const { runUserExists } = await import('./exists.js');
      await runUserExists(options, deps);
    });

  user
    .command('show')
    .description('Show one borrower by id, e-mail or reference (client-side, over the user list)')
    .argument('<id|email|reference>', 'a user id, an e-mail, or a user reference')
    .addHelpText(
      'after',
      `${examples('loanctl user show 42', 'loanctl user show ada@example.com -o json', 'loanctl user show USR-1A2B3C')}
The API has no user read: an id is found by bisecting the list's pages (they are ordered by id), an
e-mail as loan create --user finds it (local index, else newest first), a reference by walking the
streamed pages (stderr says how many users were scanned; the spec's list items carry no reference).
`,
    )
    .action(async (ref: string) => {
      const { runUserShow } = await import('./show.js');
      await runUserShow({ ref }, deps);
    });

  user
    .command('find')
    .description('Find borrowers by phone or name (client-side, over the streamed user list)')
    .option('--phone <phone>', 'the phone, in any form: 08012345678, 2348012345678 or +2348012345678')
    .option('--name <words>', 'words of the first and last name, any case: every word must appear')
    .option('--limit <n>', 'stop after this many matches')
    .addHelpText(
      'after',
      `${examples('loanctl user find --phone 08012345678', 'loanctl user find --name "ada obi" -o json', 'loanctl user find --name ada --limit 1')}
The API has no search: this walks the whole user list page by page (memory stays flat), prints the
matches as they are found, and says on stderr how many users were scanned.
`,
    )
    .action(async (options) => {
      const { runUserFind } = await import('./find.js');
      await runUserFind(options, deps);
    });

  user
    .command('list')
    .description('List the borrower users of your organisation, a page at a time')
    .option('--start <date>', 'created on or after this date (yyyy-mm-dd)')
    .option('--end <date>', 'created on or before this date (yyyy-mm-dd)')
    .option('--page <n>', 'page number, from 1 (default 1)')
    .option('--all', 'walk every page, printing rows as they arrive')
    .addHelpText(
      'after',
      examples(
        'loanctl user list',
        'loanctl user list --start 2024-01-01 --end 2024-01-31 --page 2',
        'loanctl user list --all -o ndjson --fields id,email',
      ),
    )
    .action(async (options) => {
      const { runUserList } = await import('./list.js');
      await runUserList(options, deps);
    });
}

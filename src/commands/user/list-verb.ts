/** `loanctl user list`: its flags and help; the run is ./list.ts. */
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';

export const userList: Verb = (user, deps) => {
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
};

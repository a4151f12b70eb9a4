/** `loanctl user exists --email E`: its flags and help; the run is ./exists.ts. */
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';

export const userExists: Verb = (user, deps) => {
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
};

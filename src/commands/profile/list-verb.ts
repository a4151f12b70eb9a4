/** `loanctl profile list`: its help; the run is ./list.ts. */
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';

export const profileList: Verb = (profile, deps) => {
  profile
    .command('list')
    .description('List the profiles; the current one is marked')
    .addHelpText('after', examples('loanctl profile list', 'loanctl profile list -o json'))
    .action(async () => {
      const { runProfileList } = await import('./list.js');
      await runProfileList({}, deps);
    });
};

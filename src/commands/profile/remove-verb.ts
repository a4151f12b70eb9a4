/** `loanctl profile remove NAME`: its help; the run is ./remove.ts. */
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';
import { NAME_HELP } from './common.js';

export const profileRemove: Verb = (profile, deps) => {
  profile
    .command('remove')
    .description('Remove a profile and its stored API key')
    .argument('<name>', NAME_HELP)
    .addHelpText('after', examples('loanctl profile remove old-staging'))
    .action(async (name: string) => {
      const { runProfileRemove } = await import('./remove.js');
      await runProfileRemove({ name }, deps);
    });
};

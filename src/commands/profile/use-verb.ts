/** `loanctl profile use NAME`: its help; the run is ./use.ts. */
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';
import { NAME_HELP } from './common.js';

export const profileUse: Verb = (profile, deps) => {
  profile
    .command('use')
    .description('Make a profile the current one')
    .argument('<name>', NAME_HELP)
    .addHelpText('after', examples('loanctl profile use prod'))
    .action(async (name: string) => {
      const { runProfileUse } = await import('./use.js');
      await runProfileUse({ name }, deps);
    });
};

/** `loanctl profile show [NAME]`: its help; the run is ./show.ts. */
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';
import { NAME_OR_CURRENT_HELP } from './common.js';

export const profileShow: Verb = (profile, deps) => {
  profile
    .command('show')
    .description('Show a profile (the current one by default) with its API key redacted')
    .argument('[name]', NAME_OR_CURRENT_HELP)
    .addHelpText('after', examples('loanctl profile show', 'loanctl profile show prod -o json'))
    .action(async (name: string | undefined) => {
      const { runProfileShow } = await import('./show.js');
      await runProfileShow({ name }, deps);
    });
};

/** `loanctl profile test [NAME]`: its help; the run is ./test.ts. */
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';
import { NAME_OR_CURRENT_HELP } from './common.js';

export const profileTest: Verb = (profile, deps) => {
  profile
    .command('test')
    .description('Say where a profile keeps its API key and check the key against the server with one harmless read')
    .argument('[name]', NAME_OR_CURRENT_HELP)
    .addHelpText(
      'after',
      `${examples('loanctl profile test', 'loanctl profile test prod -o json')}
Exit 0: the key was accepted; 3: rejected (or the keyring did not give it); 5: the server could not be reached.
`,
    )
    .action(async (name: string | undefined) => {
      const { runProfileTest } = await import('./test.js');
      await runProfileTest({ name }, deps);
    });
};

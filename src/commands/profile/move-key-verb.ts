/** `loanctl profile move-key NAME --to PLACE`: its flags and help; the run is ./move-key.ts. */
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';
import { NAME_HELP } from './common.js';

export const profileMoveKey: Verb = (profile, deps) => {
  profile
    .command('move-key')
    .description(
      "Move a profile's API key between the OS keyring and the config file (written there before it is deleted here)",
    )
    .argument('<name>', NAME_HELP)
    .requiredOption('--to <place>', 'keyring or file')
    .addHelpText(
      'after',
      examples('loanctl profile move-key prod --to keyring', 'loanctl profile move-key prod --to file'),
    )
    .action(async (name: string, options: { to: string }) => {
      const { runProfileMoveKey } = await import('./move-key.js');
      await runProfileMoveKey({ name, to: options.to }, deps);
    });
};

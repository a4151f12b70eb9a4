/** `loanctl cache clear`: its help; the run is ./clear.ts. */
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';

export const cacheClear: Verb = (cache, deps) => {
  cache
    .command('clear')
    .description('Remove the index of e-mail → user id of every profile')
    .addHelpText(
      'after',
      `${examples('loanctl cache clear')}
The index lives in $LOANCTL_CONFIG_DIR/cache when that is set, else $XDG_CACHE_HOME/loanctl,
else ~/.cache/loanctl. Clearing it only makes the next
look-up of each e-mail search the user list again.
`,
    )
    .action(async () => {
      const { runCacheClear } = await import('./clear.js');
      await runCacheClear(deps);
    });
};

/**
 * `loanctl cache clear`: removes what loanctl keeps only to be faster, the local index of borrowers
 * found by e-mail (src/config/user-index.ts). Needs no API key and sends nothing.
 */
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { examples } from '../common/help.js';

export function registerCacheCommands(program: Command, deps: Deps): void {
  const cache = program
    .command('cache')
    .description('Clear the local index of borrowers found by e-mail')
    .addHelpText('after', examples('loanctl cache clear'));

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
}

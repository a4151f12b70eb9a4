/** `loanctl user show ID|EMAIL|REFERENCE`: its help; the run is ./show.ts. */
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';

export const userShow: Verb = (user, deps) => {
  user
    .command('show')
    .description('Show one borrower by id, e-mail or reference (client-side, over the user list)')
    .argument('<id|email|reference>', 'a user id, an e-mail, or a user reference')
    .addHelpText(
      'after',
      `${examples('loanctl user show 42', 'loanctl user show ada@example.com -o json', 'loanctl user show USR-1A2B3C')}
The API has no user read: an id is found by bisecting the list's pages (they are ordered by id), an
e-mail as loan create --user finds it (local index, else newest first), a reference by walking the
streamed pages (stderr says how many users were scanned; the spec's list items carry no reference).
`,
    )
    .action(async (ref: string) => {
      const { runUserShow } = await import('./show.js');
      await runUserShow({ ref }, deps);
    });
};

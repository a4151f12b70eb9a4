/** `loanctl user show ID|EMAIL|REFERENCE`: its help; the run is ./show.ts. */
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';

export const userShow: Verb = (user, deps) => {
  user
    .command('show')
    .description('Show one borrower by id, e-mail or reference (client-side, over the user list)')
    .argument('<id|email|reference>', 'a user id, an e-mail, or a reference loanctl saw (user create, --from)')
    .addHelpText(
      'after',
      `${examples('loanctl user show 42', 'loanctl user show ada@example.com -o json', 'loanctl user show USR-1A2B3C')}
The API has no user read and no search. An id is found by bisecting the list's pages (they are
ordered by id); an e-mail through loanctl's local index of borrowers (the first look-up walks the
whole list into it, later ones only the borrowers created since; every answer is confirmed by the
server). A reference works when loanctl saw it: from user create, user create --from, and this
command. For any other reference, use the e-mail or the id.
`,
    )
    .action(async (ref: string) => {
      const { runUserShow } = await import('./show.js');
      await runUserShow({ ref }, deps);
    });
};

/** `loanctl user find --phone P | --name N`: its flags and help; the run is ./find.ts. */
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';

export const userFind: Verb = (user, deps) => {
  user
    .command('find')
    .description('Find borrowers by phone or name (through the local index of borrowers)')
    .option(
      '--phone <phone>',
      'the phone, in any form: 08012345678, 8012345678 (its 0 lost), 2348012345678 or +2348012345678',
    )
    .option('--name <words>', 'words of the first and last name, any case: every word must appear')
    .option('--limit <n>', 'stop after this many matches')
    .addHelpText(
      'after',
      `${examples('loanctl user find --phone 08012345678', 'loanctl user find --name "ada obi" -o json', 'loanctl user find --name ada --limit 1')}
The API has no search: the first look-up walks the whole user list into loanctl's local index of
borrowers, later ones only the borrowers created since, and each match is confirmed by the server
before it prints. stderr says how many users were walked. loanctl cache clear empties the index.
`,
    )
    .action(async (options) => {
      const { runUserFind } = await import('./find.js');
      await runUserFind(options, deps);
    });
};

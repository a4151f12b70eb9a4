/** `loanctl profile set NAME`: its flags and help; the run is ./set.ts. */
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';
import { NAME_HELP, ORG_ID_HELP, PRODUCT_ID_HELP } from './common.js';

export const profileSet: Verb = (profile, deps) => {
  profile
    .command('set')
    .description('Change some fields of a profile (base URL, product, organisation, key), keeping the others')
    .argument('<name>', NAME_HELP)
    .option('--product-id <n>', PRODUCT_ID_HELP)
    .option('--org-id <n>', ORG_ID_HELP)
    .option('--dashboard-url <template>', "your lender dashboard's loan page, {id} for the id (loan open)")
    .option('--api-key-stdin', 'read a new API key from stdin; it goes where the profile keeps its key')
    .option('--csv-bom', 'make -o csv begin with the byte-order mark Excel needs, as --bom does (--no-bom overrides)')
    .option('--no-csv-bom', 'stop writing the byte-order mark with -o csv (the default)')
    .addHelpText(
      'after',
      `${examples(
        'loanctl profile set prod --base-url https://api2.example.com',
        'loanctl profile set prod --product-id 14',
        'loanctl profile set prod --dashboard-url "https://lender.example.com/loans/{id}"',
        'loanctl profile set prod --csv-bom',
        'printf \'%s\' "$NEW_KEY" | loanctl profile set prod --api-key-stdin',
      )}
--base-url (the global option) is saved into the profile. Give at least one field.
`,
    )
    .action(async (name: string, options) => {
      const { runProfileSet } = await import('./set.js');
      await runProfileSet({ name, ...options }, deps);
    });
};

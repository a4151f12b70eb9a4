/** `loanctl profile add NAME`: its flags and help; the run is ./add.ts. */
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';
import { ORG_ID_HELP, PRODUCT_ID_HELP } from './common.js';

export const profileAdd: Verb = (profile, deps) => {
  profile
    .command('add')
    .description('Add a profile, or replace one of the same name (the key is read masked or from stdin)')
    .argument('<name>', 'profile name, e.g. prod or sandbox')
    .option('--product-id <n>', PRODUCT_ID_HELP)
    .option('--org-id <n>', ORG_ID_HELP)
    .option('--api-key-stdin', 'read the API key from stdin instead of a masked prompt')
    .option('--use', 'make it the current profile (the first profile always becomes current)')
    .option('--insecure-storage', 'keep the API key in the 0600 config file, not the OS keyring')
    .addHelpText(
      'after',
      `${examples(
        'loanctl profile add prod --base-url https://api.example.com --product-id 12',
        'printf \'%s\' "$LENDER_KEY" | loanctl profile add prod --base-url https://api.example.com --api-key-stdin',
        'loanctl profile add local --base-url http://127.0.0.1:4010 --use',
      )}
--base-url is required. Plain http:// is accepted only for localhost, 127.0.0.0/8 and ::1.
The key goes to the OS keyring where one answers, else (saying so) to the 0600 config file.
`,
    )
    .action(async (name: string, options) => {
      const { runProfileAdd } = await import('./add.js');
      await runProfileAdd({ name, ...options }, deps);
    });
};

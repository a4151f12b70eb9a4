/**
 * `loanctl profile …`: named connections (base URL, API key, default product id) kept in one
 * 0600 file, the API key in the OS keyring where one answers (config/key-storage.ts). Each verb
 * lives in its own file, imported only when it runs.
 */
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { examples } from '../common/help.js';

export function registerProfileCommands(program: Command, deps: Deps): void {
  const profile = program
    .command('profile')
    .description('Manage profiles: the API base URL, API key and default product id to use')
    .addHelpText(
      'after',
      examples(
        'printf \'%s\' "$LENDER_KEY" | loanctl profile add prod --base-url https://api.example.com --product-id 12 --api-key-stdin',
        'loanctl profile list',
        'loanctl profile use prod',
        'loanctl profile test prod',
      ),
    );

  profile
    .command('add')
    .description('Add a profile, or replace one of the same name (the key is read masked or from stdin)')
    .argument('<name>', 'profile name, e.g. prod or sandbox')
    .option('--product-id <n>', 'default product id for loan commands')
    .option('--org-id <n>', 'your organisation id (used by business information)')
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

  profile
    .command('set')
    .description('Change some fields of a profile (base URL, product, organisation, key), keeping the others')
    .argument('<name>', 'profile name')
    .option('--product-id <n>', 'default product id for loan commands')
    .option('--org-id <n>', 'your organisation id (used by business information)')
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

  profile
    .command('list')
    .description('List the profiles; the current one is marked')
    .addHelpText('after', examples('loanctl profile list', 'loanctl profile list -o json'))
    .action(async () => {
      const { runProfileList } = await import('./list.js');
      await runProfileList({}, deps);
    });

  profile
    .command('use')
    .description('Make a profile the current one')
    .argument('<name>', 'profile name')
    .addHelpText('after', examples('loanctl profile use prod'))
    .action(async (name: string) => {
      const { runProfileUse } = await import('./use.js');
      await runProfileUse({ name }, deps);
    });

  profile
    .command('show')
    .description('Show a profile (the current one by default) with its API key redacted')
    .argument('[name]', 'profile name (default: --profile, LOANCTL_PROFILE, or the current one)')
    .addHelpText('after', examples('loanctl profile show', 'loanctl profile show prod -o json'))
    .action(async (name: string | undefined) => {
      const { runProfileShow } = await import('./show.js');
      await runProfileShow({ name }, deps);
    });

  profile
    .command('test')
    .description('Say where a profile keeps its API key and check the key against the server with one harmless read')
    .argument('[name]', 'profile name (default: --profile, LOANCTL_PROFILE, or the current one)')
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

  profile
    .command('move-key')
    .description(
      "Move a profile's API key between the OS keyring and the config file (written there before it is deleted here)",
    )
    .argument('<name>', 'profile name')
    .requiredOption('--to <place>', 'keyring or file')
    .addHelpText(
      'after',
      examples('loanctl profile move-key prod --to keyring', 'loanctl profile move-key prod --to file'),
    )
    .action(async (name: string, options: { to: string }) => {
      const { runProfileMoveKey } = await import('./move-key.js');
      await runProfileMoveKey({ name, to: options.to }, deps);
    });

  profile
    .command('remove')
    .description('Remove a profile and its stored API key')
    .argument('<name>', 'profile name')
    .addHelpText('after', examples('loanctl profile remove old-staging'))
    .action(async (name: string) => {
      const { runProfileRemove } = await import('./remove.js');
      await runProfileRemove({ name }, deps);
    });
}

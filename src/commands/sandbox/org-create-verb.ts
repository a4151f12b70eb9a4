/** `loanctl sandbox org create`: its flags and help; the run is ./org-create.ts. */
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';
import { DATA_DIR_HELP, JSON_ALIAS_HELP } from './common.js';

export const orgCreate: Verb = (org, deps) => {
  org
    .command('create')
    .description('Create an organisation and print its id and a new API key (shown only once)')
    .requiredOption('--name <name>', 'the organisation name')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--json', JSON_ALIAS_HELP)
    .addHelpText('after', examples('loanctl sandbox org create --name "Acme Lending" -o json'))
    .action(async (options) => {
      const { runSandboxOrgCreate } = await import('./org-create.js');
      await runSandboxOrgCreate(options, deps);
    });
};

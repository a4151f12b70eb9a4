/** `loanctl sandbox product create`: its flags and help; the run is ./product-create.ts. */
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';
import { DATA_DIR_HELP, JSON_ALIAS_HELP } from './common.js';

export const productCreate: Verb = (product, deps) => {
  product
    .command('create')
    .description('Create a loan product for an organisation and print its id and slug')
    .requiredOption('--org <id>', 'the organisation id')
    .requiredOption('--name <name>', 'the product name')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--json', JSON_ALIAS_HELP)
    .addHelpText('after', examples('loanctl sandbox product create --org 2 --name "Asset Finance" -o json'))
    .action(async (options) => {
      const { runSandboxProductCreate } = await import('./product-create.js');
      await runSandboxProductCreate(options, deps);
    });
};

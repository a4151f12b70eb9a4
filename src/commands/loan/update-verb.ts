/** `loanctl loan update ID`: its flags and help; the run is ./update.ts. */
import { addFieldOptions } from '../common/field-options.js';
import { DATA_HELP } from '../common/help.js';
import { productVerb, type Verb } from '../common/verb.js';

export const loanUpdate: Verb = (loan, deps) => {
  const update = productVerb(
    loan,
    'update',
    'Change the purpose of a loan request',
    'loanctl loan update 172 --purpose "Shop stock and a freezer"',
  ).argument('<id>', 'loan request id');
  addFieldOptions(update, 'updateLoanRequest')
    .option('--data <json>', DATA_HELP)
    .action(async (id, options) => {
      const { runLoanUpdate } = await import('./update.js');
      await runLoanUpdate({ ...options, id }, deps);
    });
};

/** `loanctl loan delete ID`: its flags and help; the run is ./delete.ts. */
import { YES_HELP } from '../common/help.js';
import { productVerb, type Verb } from '../common/verb.js';

export const loanDelete: Verb = (loan, deps) => {
  productVerb(
    loan,
    'delete',
    'Delete a loan request (asks first on a terminal; elsewhere needs --yes)',
    'loanctl loan delete 172',
    'loanctl loan delete 172 --yes',
  )
    .argument('<id>', 'loan request id')
    .option('-y, --yes', YES_HELP)
    .action(async (id, options) => {
      const { runLoanDelete } = await import('./delete.js');
      await runLoanDelete({ ...options, id }, deps);
    });
};

/** `loanctl loan submit ID`: its help; the run is ./submit.ts. */
import { productVerb, type Verb } from '../common/verb.js';

export const loanSubmit: Verb = (loan, deps) => {
  productVerb(loan, 'submit', 'Submit a loan request for consideration', 'loanctl loan submit 172')
    .argument('<id>', 'loan request id')
    .action(async (id, options) => {
      const { runLoanSubmit } = await import('./submit.js');
      await runLoanSubmit({ ...options, id }, deps);
    });
};

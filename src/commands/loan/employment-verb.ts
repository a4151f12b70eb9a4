/** `loanctl loan employment ID`: its help; the run is ./employment.ts. */
import { productVerb, type Verb } from '../common/verb.js';

export const loanEmployment: Verb = (loan, deps) => {
  productVerb(loan, 'employment', 'Show the employment information of a loan request', 'loanctl loan employment 172')
    .argument('<id>', 'loan request id')
    .action(async (id, options) => {
      const { runLoanEmployment } = await import('./employment.js');
      await runLoanEmployment({ ...options, id }, deps);
    });
};

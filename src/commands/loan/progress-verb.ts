/** `loanctl loan progress ID`: its help; the run is ./progress.ts. */
import { productVerb, type Verb } from '../common/verb.js';

export const loanProgress: Verb = (loan, deps) => {
  productVerb(loan, 'progress', 'Print the progress marker of a loan request', 'loanctl loan progress 172')
    .argument('<id>', 'loan request id')
    .action(async (id, options) => {
      const { runLoanProgress } = await import('./progress.js');
      await runLoanProgress({ ...options, id }, deps);
    });
};

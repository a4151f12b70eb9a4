/** `loanctl loan tokenize ID`: its help; the run is ./tokenize.ts. */
import { productVerb, type Verb } from '../common/verb.js';

export const loanTokenize: Verb = (loan, deps) => {
  productVerb(loan, 'tokenize', 'Tokenize the linker of a loan request', 'loanctl loan tokenize 172')
    .argument('<id>', 'loan request id')
    .action(async (id, options) => {
      const { runLoanTokenize } = await import('./tokenize.js');
      await runLoanTokenize({ ...options, id }, deps);
    });
};

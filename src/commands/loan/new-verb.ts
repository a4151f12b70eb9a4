/** `loanctl loan new`: its flags and help; the run is ./new.ts. */
import { productVerb, type Verb } from '../common/verb.js';

export const loanNew: Verb = (loan, deps) => {
  productVerb(
    loan,
    'new',
    'Create a loan request step by step, with questions (borrower, amount, details, submit, approve)',
    'loanctl loan new',
    'loanctl loan new --resume 172',
  )
    .option('--resume <id>', 'pick up an existing loan request where it stands and offer the steps that remain')
    .action(async (options) => {
      const { runLoanNew } = await import('./new.js');
      await runLoanNew(options, deps);
    });
};

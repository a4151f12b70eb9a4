/** `loanctl loan show ID`: its flags and help; the run is ./show.ts. */
import { productVerb, type Verb } from '../common/verb.js';

export const loanShow: Verb = (loan, deps) => {
  productVerb(
    loan,
    'show',
    'Show a loan request with its progress, bank details, guarantors and employment',
    'loanctl loan show 172',
    'loanctl loan show 172 -o json | jq .loan_request.status',
    'loanctl loan show 172 --web',
  )
    .argument('<id>', 'loan request id')
    .option('--web', 'open its page in the lender dashboard instead (as loan open)')
    .action(async (id, options) => {
      const { runLoanShow } = await import('./show.js');
      await runLoanShow({ ...options, id }, deps);
    });
};

/**
 * `loanctl loan open ID`: the loan request's page in the lender dashboard (the profile's
 * `dashboard-url`, else the sandbox's own), in the browser, or its URL on stdout where there is no
 * browser to open (common/open-url.ts, its run). Sends nothing to the API.
 */
import { productVerb, type Verb } from '../common/verb.js';

export const loanOpen: Verb = (loan, deps) => {
  productVerb(
    loan,
    'open',
    "Open a loan request's page in the lender dashboard (prints its URL where there is no browser)",
    'loanctl loan open 172',
    'loanctl profile set prod --dashboard-url "https://lender.example.com/loans/{id}" && loanctl loan open 172',
  )
    .argument('<id>', 'loan request id')
    .action(async (id: string) => {
      // ./common.ts (the id's parser) brings the loan runs' shared modules: imported with the run.
      const [{ openLoanPage }, { loanId }] = await Promise.all([
        import('../common/open-url.js'),
        import('./common.js'),
      ]);
      await openLoanPage(loanId(id), deps);
    });
};

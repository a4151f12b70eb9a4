/** `loanctl loan queue`, the approval inbox: its flags and help; the run is ./queue.ts. */
import { productVerb, type Verb } from '../common/verb.js';

export const loanQueue: Verb = (loan, deps) => {
  productVerb(
    loan,
    'queue',
    'The approval inbox: loan requests waiting for approval (submitted, not yet approved), the one waiting longest first',
    'loanctl loan queue',
    'loanctl loan queue --limit 100 -o csv > inbox.csv',
  )
    .option('--limit <n>', 'how many to show, 1 to 1000 (default 20)')
    .addHelpText(
      'after',
      `
Computed by loanctl, client-side: the API can neither filter nor sort by submission, so every page
is read (100 rows a request) and a bounded sort keeps the --limit oldest submissions. stderr says
how many are waiting and how many rows were scanned. --fields may add the borrower's
borrower_email and borrower_phone, from loanctl's local index of borrowers.
`,
    )
    .action(async (options) => {
      const { runLoanQueue } = await import('./queue.js');
      await runLoanQueue(options, deps);
    });
};

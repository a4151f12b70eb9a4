/** `loanctl loan review`, the approval queue at a terminal: its flags and help; the run is ./review.ts. */
import { productVerb, type Verb } from '../common/verb.js';

export const loanReview: Verb = (loan, deps) => {
  productVerb(
    loan,
    'review',
    'Go through the approval queue at a terminal, one loan request at a time: approve, skip, open or stop',
    'loanctl loan review',
    'loanctl loan review --limit 5 --product 3',
    'loanctl loan review -o json',
  )
    .option('--limit <n>', 'how many of the queue to go through, oldest submission first, 1 to 1000 (default 20)')
    .addHelpText(
      'after',
      `
Each loan request is shown with what is attached to it and a preview with the last terms used for
the product; Approve asks the terms (Enter keeps those last terms) and reviews them as loan approve
does. The summary of what was done is printed at the end: a sentence, or with -o json a record of
the ids approved, skipped, opened and left waiting; the questions are on stderr, so stdout may
be a file (loanctl loan review -o json > reviewed.json). Needs a terminal: from a script, use
loanctl loan approve --from FILE.
`,
    )
    .action(async (options) => {
      const { runLoanReview } = await import('./review.js');
      await runLoanReview(options, deps);
    });
};

/** `loanctl loan find --reference R`: its flags and help; the run is ./find.ts. */
import { STAGE_CHOICES } from '../../contract/states.js';
import { productVerb, type Verb } from '../common/verb.js';

export const loanFind: Verb = (loan, deps) => {
  productVerb(
    loan,
    'find',
    'Find a loan request by its reference (client-side: walks the streamed list, newest first)',
    'loanctl loan find --reference LR-8F2K1Q',
    'loanctl loan find --reference LR-8F2K1Q -o json | jq .id',
    'loanctl loan find --reference LR-8F2K1Q --stage approved',
  )
    .requiredOption('--reference <ref>', 'the loan request reference')
    .option('--stage <stage>', `only if it is in this stage (${STAGE_CHOICES.join(', ')}); else exit 4`)
    .addHelpText(
      'after',
      `
The API reads a loan request only by id: this walks the product's list page by page (memory stays
flat) and stops at the match; stderr says how many loan requests were scanned.
`,
    )
    .action(async (options) => {
      const { runLoanFind } = await import('./find.js');
      await runLoanFind(options, deps);
    });
};

/** `loanctl status`: its flags and help; the run is ./status.ts. */
import { DURATION_EXAMPLES } from '../../input/duration.js';
import { DATA_DIR_HELP } from '../common/help.js';
import { productVerb, type Verb } from '../common/verb.js';

const OLDER_THAN_DEFAULT = '7d';

export const statusVerb: Verb = (program, deps) => {
  productVerb(
    program,
    'status',
    'What needs you: the approval queue, loan requests long in a stage, bulk files with rows left, the sandbox',
    'loanctl status',
    'loanctl status --older-than 2d',
    'loanctl status -o json',
  )
    .option(
      '--older-than <duration>',
      `a loan request is long in its stage after this: ${DURATION_EXAMPLES}`,
      OLDER_THAN_DEFAULT,
    )
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .addHelpText(
      'after',
      `
Reads every loan request of the product once (as loan queue does), the bulk journals in
$LOANCTL_STATE_DIR/bulk (else $XDG_STATE_HOME/loanctl/bulk, else ~/.local/state/loanctl/bulk)
and the sandbox's run file. A part it cannot read is said in one line; the exit is 0.
`,
    )
    .action(async (options) => {
      const { runStatus } = await import('./status.js');
      await runStatus(options, deps);
    });
};

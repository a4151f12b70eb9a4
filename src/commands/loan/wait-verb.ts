/** `loanctl loan wait ID`: its flags and help; the run is ./wait.ts. */
import type { Command } from 'commander';
import { STAGE_CHOICES } from '../../contract/states.js';
import { productVerb, type Verb } from '../common/verb.js';

export const loanWait: Verb = (loan, deps) => {
  // The root's --timeout (one request's limit) takes `loan wait ID --timeout 10m` wherever it is
  // written, so for this verb it is the whole wait's limit; each request keeps the default.
  productVerb(
    loan,
    'wait',
    'Wait until a loan request reaches a stage, e.g. approved (polls; exit 124 on --timeout)',
    'loanctl loan wait 172 --until approved',
    'loanctl loan wait 172 --until submitted --timeout 30m --interval 10s',
  )
    .argument('<id>', 'loan request id')
    .option('--until <stage>', `the stage to wait for (or a later one): ${STAGE_CHOICES.join(', ')}`)
    .option('--interval <duration>', 'first wait between checks, growing to 4 times it (default 5s)')
    .addHelpText('after', '  --timeout <duration>  how long to wait in all, e.g. 90s, 10m, 1h (default 10m)\n')
    .action(async (id, options, command: Command) => {
      const root = command.parent?.parent;
      const given = root?.getOptionValueSource('timeout') === 'cli';
      const timeout = given ? String(root?.opts().timeout) : undefined;
      deps.globals = { ...deps.globals, timeout: undefined };
      const { runLoanWait } = await import('./wait.js');
      await runLoanWait({ ...options, id, timeout }, deps);
    });
};

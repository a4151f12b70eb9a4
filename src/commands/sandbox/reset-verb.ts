/** `loanctl sandbox reset`: its flags and help; the run is ./reset.ts. */
import type { Verb } from '../common/verb.js';
import { controlVerb, YES_HELP } from './common.js';

export const sandboxReset: Verb = (sandbox, deps) => {
  controlVerb(
    sandbox,
    'reset',
    'Remove every borrower and loan request (keeps organisations, keys, products); asks first',
    'loanctl sandbox reset',
    'loanctl sandbox reset --all --yes',
  )
    .option('--all', 'remove everything, then make the demo organisation and product again')
    .option('--yes', YES_HELP)
    .action(async (options) => {
      const { runSandboxReset } = await import('./reset.js');
      await runSandboxReset(options, deps);
    });
};

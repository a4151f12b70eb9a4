/** `loanctl sandbox open`: its help; the run is ./open.ts. */
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';

export const sandboxOpen: Verb = (sandbox, deps) => {
  sandbox
    .command('open')
    .description("Open the sandbox's lender dashboard in the browser (prints its URL where there is none)")
    .addHelpText('after', examples('loanctl sandbox open', 'loanctl --base-url http://127.0.0.1:4011 sandbox open'))
    .action(async () => {
      const { runSandboxOpen } = await import('./open.js');
      await runSandboxOpen(deps);
    });
};

/** `loanctl sandbox restore NAME`: its flags and help; the run is ./restore.ts. */
import type { Verb } from '../common/verb.js';
import { controlVerb, YES_HELP } from './common.js';

export const sandboxRestore: Verb = (sandbox, deps) => {
  controlVerb(
    sandbox,
    'restore',
    'Replace the data with snapshot NAME, in one transaction (while serving, too); asks first',
    'loanctl sandbox restore before-test',
    'loanctl sandbox restore before-test --yes',
  )
    .argument('<name>', 'a snapshot name (see `sandbox snapshot list`)')
    .option('--yes', YES_HELP)
    .action(async (name, options) => {
      const { runSandboxRestore } = await import('./restore.js');
      await runSandboxRestore(name, options, deps);
    });
};

/** `loanctl sandbox faults clear [ID…]`: its flags and help; the run is ./faults-clear.ts. */
import type { Verb } from '../common/verb.js';
import { dataDirVerb } from './common.js';

export const faultsClear: Verb = (faults, deps) => {
  dataDirVerb(
    faults,
    'clear',
    'Remove the faults with these ids, or every fault; a running sandbox drops them from its next request',
    'loanctl sandbox faults clear 2 3',
    'loanctl sandbox faults clear',
  )
    .argument('[id...]', 'fault ids: the numbers `faults list` shows after #; none: every fault')
    .action(async (ids: string[], options) => {
      const { runSandboxFaultsClear } = await import('./faults-clear.js');
      await runSandboxFaultsClear(ids, options, deps);
    });
};

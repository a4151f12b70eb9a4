/** `loanctl sandbox faults list`: its flags and help; the run is ./faults-list.ts. */
import type { Verb } from '../common/verb.js';
import { dataDirVerb } from './common.js';

export const faultsList: Verb = (faults, deps) => {
  dataDirVerb(
    faults,
    'list',
    'List the faults, in the order they apply (the first that matches a request decides)',
    'loanctl sandbox faults list',
    'loanctl sandbox faults list -o json',
  ).action(async (options) => {
    const { runSandboxFaultsList } = await import('./faults-list.js');
    await runSandboxFaultsList(options, deps);
  });
};

/** `loanctl sandbox stop`: its flags and help; the run is ./stop.ts. */
import type { Verb } from '../common/verb.js';
import { controlVerb } from './common.js';

export const sandboxStop: Verb = (sandbox, deps) => {
  controlVerb(
    sandbox,
    'stop',
    'Stop the sandbox serving the data dir, letting requests in flight finish (waiting up to --timeout)',
    'loanctl sandbox stop',
  ).action(async (options) => {
    const { runSandboxStop } = await import('./stop.js');
    await runSandboxStop(options, deps);
  });
};

/** `loanctl sandbox stop`: its flags and help; the run is ./stop.ts. */
import type { Verb } from '../common/verb.js';
import { controlVerb } from './common.js';

export const sandboxStop: Verb = (sandbox, deps) => {
  controlVerb(
    sandbox,
    'stop',
    'Stop the sandbox serving the data dir, letting requests in flight finish',
    'loanctl sandbox stop',
  )
    .option('--timeout <seconds>', 'how long to wait for it to exit', '30')
    .action(async (options) => {
      const { runSandboxStop } = await import('./stop.js');
      await runSandboxStop(options, deps);
    });
};

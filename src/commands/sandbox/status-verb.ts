/** `loanctl sandbox status`: its flags and help; the run is ./status.ts. */
import type { Verb } from '../common/verb.js';
import { controlVerb } from './common.js';

export const sandboxStatus: Verb = (sandbox, deps) => {
  controlVerb(
    sandbox,
    'status',
    'Say whether a sandbox serves the data dir: url, pid, uptime (exit 4 when none does)',
    'loanctl sandbox status',
  ).action(async (options) => {
    const { runSandboxStatus } = await import('./status.js');
    await runSandboxStatus(options, deps);
  });
};

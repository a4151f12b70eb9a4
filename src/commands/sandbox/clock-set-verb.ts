/** `loanctl sandbox clock set TIME`: its flags and help; the run is ./clock-set.ts. */
import type { Command } from 'commander';
import type { Verb } from '../common/verb.js';
import { controlVerb } from './common.js';

export const clockSet: Verb = (clock, deps) => {
  controlVerb(
    clock,
    'set',
    "Set the sandbox's time (it runs on from there)",
    'loanctl sandbox clock set 2026-01-01T09:00:00Z',
  )
    .argument('<time>', 'an ISO 8601 time with its zone, e.g. 2026-01-01T09:00:00Z')
    .action(async (time, _options, command: Command) => {
      // `--data-dir` after `set` may be parsed as `clock`'s option: optsWithGlobals() reads both.
      const { runSandboxClockSet } = await import('./clock-set.js');
      await runSandboxClockSet(time, command.optsWithGlobals(), deps);
    });
};

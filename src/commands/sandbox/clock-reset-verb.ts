/** `loanctl sandbox clock reset`: its flags and help; the run is ./clock-reset.ts. */
import type { Command } from 'commander';
import type { Verb } from '../common/verb.js';
import { controlVerb } from './common.js';

export const clockReset: Verb = (clock, deps) => {
  controlVerb(clock, 'reset', "Make the sandbox's time real time again", 'loanctl sandbox clock reset').action(
    async (_options, command: Command) => {
      // `--data-dir` after `reset` may be parsed as `clock`'s option: optsWithGlobals() reads both.
      const { runSandboxClockReset } = await import('./clock-reset.js');
      await runSandboxClockReset(command.optsWithGlobals(), deps);
    },
  );
};

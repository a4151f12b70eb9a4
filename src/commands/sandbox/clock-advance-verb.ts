/** `loanctl sandbox clock advance DURATION`: its flags and help; the run is ./clock-advance.ts. */
import type { Command } from 'commander';
import type { Verb } from '../common/verb.js';
import { controlVerb } from './common.js';

export const clockAdvance: Verb = (clock, deps) => {
  controlVerb(
    clock,
    'advance',
    "Move the sandbox's time by a duration: 45s, 15m, 12h, 30d (-2h moves it back)",
    'loanctl sandbox clock advance 30d',
  )
    .argument('<duration>', 'a whole number and a unit: s, m, h or d')
    .action(async (duration, _options, command: Command) => {
      // `--data-dir` after `advance` may be parsed as `clock`'s option: optsWithGlobals() reads both.
      const { runSandboxClockAdvance } = await import('./clock-advance.js');
      await runSandboxClockAdvance(duration, command.optsWithGlobals(), deps);
    });
};

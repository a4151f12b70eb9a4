/**
 * `loanctl sandbox clock`: shows the sandbox's clock (the run is ./clock-show.ts), and lists its
 * own verbs, `clock set|advance|reset`, each in its `clock-<verb>-verb.ts`.
 */
import type { Verb } from '../common/verb.js';
import { clockAdvance } from './clock-advance-verb.js';
import { clockReset } from './clock-reset-verb.js';
import { clockSet } from './clock-set-verb.js';
import { controlVerb } from './common.js';

const CLOCK_VERBS: readonly Verb[] = [clockSet, clockAdvance, clockReset];

export const sandboxClock: Verb = (sandbox, deps) => {
  const clock = controlVerb(
    sandbox,
    'clock',
    "Show the sandbox's clock (every timestamp it writes follows it)",
    'loanctl sandbox clock',
    'loanctl sandbox clock set 2026-01-01T09:00:00Z',
    'loanctl sandbox clock advance 30d',
    'loanctl sandbox clock reset',
  ).action(async (options) => {
    const { runSandboxClockShow } = await import('./clock-show.js');
    await runSandboxClockShow(options, deps);
  });
  for (const add of CLOCK_VERBS) add(clock, deps);
};

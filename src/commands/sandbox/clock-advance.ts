/** `loanctl sandbox clock advance 30d`: moves the sandbox's time forward (or back, `-- -2h`). */
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { advanceClock } from '../../sandbox/control/clock.js';
import { parseDuration } from '../../sandbox/control/duration.js';
import { printClock } from './common.js';
import { type DataDirOptions, withDataDir } from './data-dir.js';

export async function runSandboxClockAdvance(duration: string, options: DataDirOptions, deps: Deps): Promise<void> {
  const ms = parseDuration(duration);
  if (ms === undefined) {
    throw new UsageError(`"${duration}" is not a duration.`, 'Give a whole number and a unit: 45s, 15m, 12h or 30d.');
  }
  const state = withDataDir(options, deps, (db) => advanceClock(db, ms, deps.now()));
  await printClock(state, deps);
}

/** `loanctl sandbox clock advance 30d`: moves the sandbox's time forward (or back, `-- -2h`). */
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { DURATION_EXAMPLES, durationMs } from '../../input/duration.js';
import { advanceClock } from '../../sandbox/control/clock.js';
import { type DataDirOptions, withDataDir } from './data-dir.js';
import { printClock } from './run-helpers.js';

export async function runSandboxClockAdvance(duration: string, options: DataDirOptions, deps: Deps): Promise<void> {
  const ms = durationMs(duration, { signed: true });
  if (ms === undefined) {
    throw new UsageError(
      `"${duration}" is not a duration.`,
      `Give ${DURATION_EXAMPLES}; a leading - moves the clock back.`,
    );
  }
  const state = withDataDir(options, deps, (db) => advanceClock(db, ms, deps.now()));
  await printClock(state, deps);
}

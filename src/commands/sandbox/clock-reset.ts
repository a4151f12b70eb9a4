/** `loanctl sandbox clock reset`: the sandbox's time is real time again. */
import type { Deps } from '../../deps.js';
import { resetClock } from '../../sandbox/control/clock.js';
import { type DataDirOptions, withDataDir } from './data-dir.js';
import { printClock } from './run-helpers.js';

export async function runSandboxClockReset(options: DataDirOptions, deps: Deps): Promise<void> {
  const state = withDataDir(options, deps, (db) => resetClock(db, deps.now()));
  await printClock(state, deps);
}

/** `loanctl sandbox clock`: the sandbox's time, and how far it is from real time. */
import type { Deps } from '../../deps.js';
import { readClock } from '../../sandbox/control/clock.js';
import { type DataDirOptions, withDataDir } from './data-dir.js';
import { printClock } from './run-helpers.js';

export async function runSandboxClockShow(options: DataDirOptions, deps: Deps): Promise<void> {
  const state = withDataDir(options, deps, (db) => readClock(db, deps.now()));
  await printClock(state, deps);
}

/** `loanctl sandbox clock set TIME`: the sandbox's time becomes TIME now, and runs on from there. */
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { setClock } from '../../sandbox/control/clock.js';
import { type DataDirOptions, withDataDir } from './data-dir.js';
import { printClock } from './shared.js';

/** An ISO 8601 time with its zone: a time without one would mean something else on each machine. */
const WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

export async function runSandboxClockSet(time: string, options: DataDirOptions, deps: Deps): Promise<void> {
  const at = new Date(time.trim());
  if (!WITH_ZONE.test(time.trim()) || Number.isNaN(at.getTime())) {
    throw new UsageError(`"${time}" is not a time with its zone.`, 'Give one such as 2026-01-01T09:00:00Z.');
  }
  const state = withDataDir(options, deps, (db) => setClock(db, at, deps.now()));
  await printClock(state, deps);
}

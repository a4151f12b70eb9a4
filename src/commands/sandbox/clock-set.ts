/** `loanctl sandbox clock set TIME`: the sandbox's time becomes TIME now, and runs on from there. */

import * as z from 'zod';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { setClock } from '../../sandbox/control/clock.js';
import { type DataDirOptions, withDataDir } from './data-dir.js';
import { printClock } from './run-helpers.js';

/**
 * An ISO 8601 time with its zone (a time without one would mean something else on each machine),
 * seconds optional. zod checks the calendar too: 2026-02-30 or 24:00 is refused, where `new Date`
 * would roll it over into another day.
 */
const WITH_ZONE = z.union([z.iso.datetime({ offset: true }), z.iso.datetime({ offset: true, precision: -1 })]);

export async function runSandboxClockSet(time: string, options: DataDirOptions, deps: Deps): Promise<void> {
  if (!WITH_ZONE.safeParse(time.trim()).success) {
    throw new UsageError(`"${time}" is not a valid time with its zone.`, 'Give one such as 2026-01-01T09:00:00Z.');
  }
  const at = new Date(time.trim());
  const state = withDataDir(options, deps, (db) => setClock(db, at, deps.now()));
  await printClock(state, deps);
}

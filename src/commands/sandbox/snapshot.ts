/** `loanctl sandbox snapshot NAME`: a consistent copy of the data, taken while it may be serving. */
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { openOutcome } from '../../output/render.js';
import { SNAPSHOT_FIELDS, takeSnapshot } from '../../sandbox/control/state.js';
import { type DataDirOptions, withDataDir } from './data-dir.js';

export interface SandboxSnapshotOptions extends DataDirOptions {
  force?: boolean;
}

export async function runSandboxSnapshot(name: string, options: SandboxSnapshotOptions, deps: Deps): Promise<void> {
  if (name === 'list')
    throw new UsageError('"list" names the listing: `loanctl sandbox snapshot list`; pick another name.');
  const output = await openOutcome(deps, SNAPSHOT_FIELDS);
  const entry = withDataDir(options, deps, (db, dataDir) => {
    try {
      return takeSnapshot(db, dataDir, name, options.force === true);
    } catch (error) {
      if (error instanceof Error && /exists already/.test(error.message)) {
        throw new UsageError(`A snapshot named "${name}" exists already.`, 'Pass --force to replace it.');
      }
      throw error;
    }
  });
  await output.print(entry, [
    `Took snapshot "${entry.name}" (${entry.bytes} bytes). Restore it with: loanctl sandbox restore ${entry.name}`,
  ]);
}

/** `loanctl sandbox snapshot NAME`: a consistent copy of the data, taken while it may be serving. */
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { notice } from '../../output/notice.js';
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
      return takeSnapshot(db, dataDir, name, options.force === true, (error) => warnUnsealed(deps, name, error));
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

/** The snapshot is whole without its seal; only a restore of it is slower (docs/decisions/snapshot-seal.md). */
function warnUnsealed(deps: Deps, name: string, error: unknown): void {
  const reason = (error as NodeJS.ErrnoException | undefined)?.code ?? (error instanceof Error ? error.message : error);
  notice(
    deps,
    `warning: could not write the seal of snapshot "${name}" (${String(reason)}): a restore of it checks every value, which is slower.`,
  );
}

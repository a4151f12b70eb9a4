/** `loanctl sandbox snapshot list`: the snapshots of a data dir, oldest first. */
import type { Deps } from '../../deps.js';
import { openOutput } from '../../output/output.js';
import { listSnapshots, SNAPSHOT_FIELDS } from '../../sandbox/control/state.js';
import type { DataDirOptions } from './data-dir.js';
import { resolveDataDir } from './run-helpers.js';

export async function runSandboxSnapshotList(options: DataDirOptions, deps: Deps): Promise<void> {
  const dataDir = resolveDataDir(options.dataDir, deps);
  const output = await openOutput(
    deps,
    { names: () => SNAPSHOT_FIELDS },
    { empty: `No snapshots in ${dataDir}. Take one with: loanctl sandbox snapshot NAME` },
  );
  await output.print(listSnapshots(dataDir));
}

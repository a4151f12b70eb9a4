/** `loanctl sandbox snapshot list`: the snapshots of a data dir, oldest first. */
import type { Deps } from '../../deps.js';
import { listSnapshots } from '../../sandbox/control/state.js';
import type { DataDirOptions } from './data-dir.js';
import { resolveDataDir } from './shared.js';

export async function runSandboxSnapshotList(options: DataDirOptions, deps: Deps): Promise<void> {
  const dataDir = resolveDataDir(options.dataDir, deps);
  const snapshots = listSnapshots(dataDir);
  if (options.json) {
    deps.io.stdout.write(`${JSON.stringify(snapshots)}\n`);
    return;
  }
  if (snapshots.length === 0) {
    deps.io.stderr.write(`No snapshots in ${dataDir}. Take one with: loanctl sandbox snapshot NAME\n`);
    return;
  }
  const width = Math.max(4, ...snapshots.map((entry) => entry.name.length));
  deps.io.stdout.write(`${'NAME'.padEnd(width)}  TAKEN AT (UTC)            BYTES\n`);
  for (const entry of snapshots) {
    deps.io.stdout.write(`${entry.name.padEnd(width)}  ${entry.taken_at.padEnd(24)}  ${entry.bytes}\n`);
  }
}

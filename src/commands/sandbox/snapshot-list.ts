/** `loanctl sandbox snapshot list`: the snapshots of a data dir, oldest first. */
import type { Deps } from '../../deps.js';
import { render } from '../../output/render.js';
import { listSnapshots } from '../../sandbox/control/state.js';
import type { DataDirOptions } from './data-dir.js';
import { resolveDataDir } from './shared.js';

export async function runSandboxSnapshotList(options: DataDirOptions, deps: Deps): Promise<void> {
  const dataDir = resolveDataDir(options.dataDir, deps);
  await render(
    listSnapshots(dataDir),
    {
      empty: `No snapshots in ${dataDir}. Take one with: loanctl sandbox snapshot NAME`,
    },
    deps,
  );
}

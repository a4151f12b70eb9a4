/**
 * `loanctl sandbox restore NAME`: the data becomes the snapshot's, in place and in one transaction,
 * so a sandbox serving the data dir keeps serving and answers each request from either the old
 * data or the restored data, never a mix (control/state.ts).
 */
import type { Deps } from '../../deps.js';
import { restoreSnapshot } from '../../sandbox/control/state.js';
import { type DataDirOptions, report, withDataDir } from './data-dir.js';

export async function runSandboxRestore(name: string, options: DataDirOptions, deps: Deps): Promise<void> {
  const counts = withDataDir(options, deps, (db, dataDir) => restoreSnapshot(db, dataDir, name));
  report(
    deps,
    options.json,
    { restored: name, rows: counts },
    `Restored snapshot "${name}": ${counts.users} users, ${counts.loan_requests} loan requests.`,
  );
}

/**
 * `loanctl sandbox restore NAME`: the data becomes the snapshot's, in one write transaction, so a
 * sandbox serving the data dir keeps serving and answers each request from either the old data or
 * the restored data, never a mix (control/state.ts). It replaces data: asks on a terminal, needs
 * --yes elsewhere (docs/architecture.md#interaction).
 */
import type { Deps } from '../../deps.js';
import { LoanctlError, localFileError } from '../../errors.js';
import { openOutcome } from '../../output/render.js';
import {
  countRows,
  describeCounts,
  perTableFields,
  restoreSnapshot,
  snapshotCounts,
} from '../../sandbox/control/state.js';
import { confirmAction } from '../common/confirm.js';
import { type DataDirOptions, withDataDir } from './data-dir.js';

export interface SandboxRestoreOptions extends DataDirOptions {
  yes?: boolean;
}

export async function runSandboxRestore(name: string, options: SandboxRestoreOptions, deps: Deps): Promise<void> {
  const output = await openOutcome(deps, ['restored', ...perTableFields('rows')]);
  const { live, snapshot } = withDataDir(options, deps, (db, dataDir) => ({
    live: countRows(db),
    snapshot: snapshotCounts(db, dataDir, name),
  }));
  await confirmAction(deps, {
    question: `Replace the sandbox's ${describeCounts(live)} with snapshot "${name}" (${describeCounts(snapshot)})? This cannot be undone.`,
    yes: options.yes,
    example: `loanctl sandbox restore ${name} --yes`,
  });
  const counts = withDataDir(options, deps, (db, dataDir) => {
    try {
      return restoreSnapshot(db, dataDir, name);
    } catch (error) {
      throw diskFailure(error, name, dataDir);
    }
  });
  await output.print({ restored: name, rows: counts }, [`Restored snapshot "${name}": ${describeCounts(counts)}.`]);
}

/**
 * A disk that failed under the copy (full, read-only, an I/O error: restoreSnapshot gives its
 * system error's code), as one line naming the data dir: the snapshot and the database are both
 * in it. The restore was undone, and the line says so.
 */
function diskFailure(error: unknown, name: string, dataDir: string): unknown {
  const failure = localFileError(error, dataDir, `snapshot "${name}" into the sandbox in`, 'restore');
  if (failure instanceof LoanctlError) failure.hint = `Nothing was changed. ${failure.hint}`;
  return failure;
}

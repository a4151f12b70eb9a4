/** What the sandbox's control verbs share: opening an existing data dir's database, and its errors. */
import { existsSync } from 'node:fs';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { SnapshotError } from '../../sandbox/control/state.js';
import { dbPathFor, SandboxDb } from '../../sandbox/db.js';
import { resolveDataDir } from './run-helpers.js';

export interface DataDirOptions {
  dataDir?: string;
}

/**
 * Runs `work` on the data dir's database (opened beside a server that may serve it: SQLite's WAL
 * and locks keep both consistent). A data dir without a database is a usage error, not a new sandbox.
 */
export function withDataDir<T>(options: DataDirOptions, deps: Deps, work: (db: SandboxDb, dataDir: string) => T): T {
  const dataDir = resolveDataDir(options.dataDir, deps);
  if (!existsSync(dbPathFor(dataDir))) {
    throw new UsageError(
      `There is no sandbox in ${dataDir}.`,
      'Start one with `loanctl sandbox start` (or name its data dir with --data-dir).',
    );
  }
  const db = SandboxDb.open(dbPathFor(dataDir));
  try {
    return work(db, dataDir);
  } catch (error) {
    if (error instanceof SnapshotError) throw new UsageError(`${capitalise(error.message)}.`);
    throw error;
  } finally {
    db.close();
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

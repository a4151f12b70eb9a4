/** The faults of a data dir, for the CLI. */
import { existsSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { dbPathFor, SandboxDb } from '../db.js';
import { type FaultRow, FaultsStore } from './store.js';

/**
 * Opens the data dir's database, does the work in one transaction (a check and the change it
 * decides see the same faults), closes it.
 */
export function withFaults<T>(dataDir: string, work: (store: FaultsStore) => T): T {
  const db = SandboxDb.open(dbPathFor(dataDir));
  try {
    return db.transaction(() => work(new FaultsStore(db.sqlite)));
  } finally {
    db.close();
  }
}

/**
 * The faults of the data dir, read only (shell completion, on every Tab): a data dir without a
 * database has none, and none is made or migrated for the asking.
 */
export function readFaults(dataDir: string): FaultRow[] {
  const path = dbPathFor(dataDir);
  if (!existsSync(path)) return [];
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return new FaultsStore(db).list();
  } finally {
    db.close();
  }
}

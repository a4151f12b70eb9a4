/** The faults of a data dir, for the CLI: opens the database, does the work, closes it. */
import { dbPathFor, SandboxDb } from '../db.js';
import { FaultsStore } from './store.js';

export function withFaults<T>(dataDir: string, work: (store: FaultsStore) => T): T {
  const db = SandboxDb.open(dbPathFor(dataDir));
  try {
    return work(new FaultsStore(db.sqlite));
  } finally {
    db.close();
  }
}

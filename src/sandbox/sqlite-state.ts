/**
 * Whether a node:sqlite connection is open, and whether it is inside a transaction. Node 24's
 * node:sqlite tells both (`isOpen`, `isTransaction`); on the older Node 22 the package supports
 * (22.13 has neither, 22.15 only `isOpen`: tried) a missing one reads `undefined`, which reads as
 * "closed" and "no transaction": the request log would write nothing, a failed write would leave
 * its transaction open, and a second read in one turn would BEGIN inside the first. There SQLite
 * is asked instead, by a statement that fails only in the other state.
 */
import type { DatabaseSync } from 'node:sqlite';

/** A connection as an older node:sqlite has it: these two may be missing. */
type OlderConnection = Partial<Pick<DatabaseSync, 'isOpen' | 'isTransaction'>>;

export function isOpen(db: DatabaseSync): boolean {
  const older: OlderConnection = db;
  if (older.isOpen !== undefined) return older.isOpen;
  try {
    // node:sqlite refuses any statement on a closed connection, before SQLite sees it.
    db.exec('');
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_INVALID_STATE') return false;
    throw error;
  }
}

export function isTransaction(db: DatabaseSync): boolean {
  const older: OlderConnection = db;
  if (older.isTransaction !== undefined) return older.isTransaction;
  try {
    // A deferred BEGIN takes no lock until a statement reads, so beginning and rolling back at
    // once changes nothing; SQLite refuses it inside a transaction.
    db.exec('BEGIN');
  } catch (error) {
    if (error instanceof Error && error.message.includes('within a transaction')) return true;
    throw error;
  }
  db.exec('ROLLBACK');
  return false;
}

/** The `faults` table: what `sandbox faults add|list|clear` write and read, and what the server counts. */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { prepareRows, type RowStatement } from '../repos/rows.js';

export interface FaultRow {
  id: number;
  /** Only requests of this method; null: any. */
  method: string | null;
  /** A path glob (../glob.ts). */
  path: string;
  /** The HTTP status to answer with; null: only `latency_ms`, then the request is served as usual. */
  http: number | null;
  /** 'error': the API's error envelope; null: a bare text body, as a gateway in front of the API sends. */
  envelope: 'error' | null;
  message: string | null;
  latency_ms: number;
  probability: number;
  seed: number | null;
  /** Fires at most this many times; null: no limit. */
  times: number | null;
  /** Requests it matched, and of those, the ones it answered. */
  matched: number;
  fired: number;
  preset: string | null;
  created_at: string;
}

export type NewFault = Omit<FaultRow, 'id' | 'matched' | 'fired'>;

const COLUMNS =
  'id, method, path, http, envelope, message, latency_ms, probability, seed, times, matched, fired, preset, created_at';
/** The fields of a FaultRow, as `sandbox faults` prints them (`--fields`). */
export const FAULT_FIELDS = COLUMNS.split(', ');

export class FaultsStore {
  private readonly insert: StatementSync;
  private readonly all: RowStatement<FaultRow>;
  private readonly removeAll: StatementSync;
  private readonly removeOne: StatementSync;
  private readonly count: StatementSync;

  constructor(db: DatabaseSync) {
    this.insert = db.prepare(
      `INSERT INTO faults (method, path, http, envelope, message, latency_ms, probability, seed, times, preset, created_at)
       VALUES (:method, :path, :http, :envelope, :message, :latency_ms, :probability, :seed, :times, :preset, :created_at)`,
    );
    this.all = prepareRows<FaultRow>(db, `SELECT ${COLUMNS} FROM faults ORDER BY id`);
    this.removeAll = db.prepare('DELETE FROM faults');
    this.removeOne = db.prepare('DELETE FROM faults WHERE id = :id');
    this.count = db.prepare('UPDATE faults SET matched = matched + 1, fired = fired + :fired WHERE id = :id');
  }

  add(fault: NewFault): number {
    return Number(this.insert.run({ ...fault }).lastInsertRowid);
  }

  list(): FaultRow[] {
    return this.all.all();
  }

  /** Removes every fault; returns how many there were. */
  clear(): number {
    return Number(this.removeAll.run().changes);
  }

  /**
   * Removes the faults of these ids, all or none (call it in a transaction): an id of no fault
   * removes nothing and is returned, with any others there is no fault of.
   */
  remove(ids: readonly number[]): { missing: number[] } {
    const known = new Set(this.list().map((fault) => fault.id));
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length === 0) for (const id of ids) this.removeOne.run({ id });
    return { missing };
  }

  /** Counts one matching request, answered by the fault (`fired`) or not. */
  counted(id: number, fired: boolean): void {
    this.count.run({ id, fired: fired ? 1 : 0 });
  }
}

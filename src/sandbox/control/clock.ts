/**
 * The sandbox's clock: real time plus an offset kept in the database (table `sandbox_clock`, one
 * row). It is per data dir, survives restarts, and a running server reads it on every request
 * (one primary-key row), so `loanctl sandbox clock …` from another process takes effect at once.
 * An offset, not a fixed time: the sandbox's time keeps running from where it was set, so
 * timestamps written one after another stay distinct and in order.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { SandboxDb } from '../db.js';

export interface ClockState {
  /** The sandbox's time now. */
  now: Date;
  /** How far it is from real time (ms; 0 when the clock is real time). */
  offset_ms: number;
}

function readOffset(sqlite: DatabaseSync): number {
  const row = sqlite.prepare('SELECT offset_ms FROM sandbox_clock WHERE id = 1').get() as
    | { offset_ms: number }
    | undefined;
  return row?.offset_ms ?? 0;
}

/** The clock a server uses: one prepared statement, read per call. */
export function databaseClock(db: SandboxDb, realNow: () => Date = () => new Date()): () => Date {
  const select = db.sqlite.prepare('SELECT offset_ms FROM sandbox_clock WHERE id = 1');
  return () => {
    const row = select.get() as { offset_ms: number } | undefined;
    return new Date(realNow().getTime() + (row?.offset_ms ?? 0));
  };
}

export function readClock(db: SandboxDb, realNow: Date = new Date()): ClockState {
  const offset = readOffset(db.sqlite);
  return { now: new Date(realNow.getTime() + offset), offset_ms: offset };
}

function writeOffset(db: SandboxDb, offset: number): void {
  db.sqlite
    .prepare(
      'INSERT INTO sandbox_clock (id, offset_ms) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET offset_ms = excluded.offset_ms',
    )
    .run(Math.round(offset));
}

/** The sandbox's time becomes `at` now, and runs on from there. */
export function setClock(db: SandboxDb, at: Date, realNow: Date = new Date()): ClockState {
  db.transaction(() => writeOffset(db, at.getTime() - realNow.getTime()));
  return readClock(db, realNow);
}

/** Moves the sandbox's time by `ms` (negative moves it back). */
export function advanceClock(db: SandboxDb, ms: number, realNow: Date = new Date()): ClockState {
  db.transaction(() => writeOffset(db, readOffset(db.sqlite) + ms));
  return readClock(db, realNow);
}

/** Back to real time. */
export function resetClock(db: SandboxDb, realNow: Date = new Date()): ClockState {
  db.transaction(() => db.sqlite.prepare('DELETE FROM sandbox_clock').run());
  return readClock(db, realNow);
}

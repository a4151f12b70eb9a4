/**
 * The sandbox's clock: real time plus an offset kept in the database (table `sandbox_clock`, one
 * row). It is per data dir, survives restarts, and a running server reads it on every request
 * (one primary-key row), so `loanctl sandbox clock …` from another process takes effect at once.
 * An offset, not a fixed time: the sandbox's time keeps running from where it was set, so
 * timestamps written one after another stay distinct and in order.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { FastifyInstance } from 'fastify';
import { UsageError } from '../../errors.js';
import { formatDuration } from '../../input/duration.js';
import type { SandboxDb } from '../db.js';
import { fail } from '../envelope.js';

/**
 * The times the sandbox's clock may show. Far inside what a JavaScript Date can hold, so a
 * timestamp always has a four-digit year and a repayment schedule decades long still fits; a
 * clock outside would make every request fail.
 */
const CLOCK_RANGE = { earliest: '1970-01-01T00:00:00Z', latest: '2999-12-31T23:59:59Z' } as const;
const EARLIEST_MS = Date.parse(CLOCK_RANGE.earliest);
const LATEST_MS = Date.parse(CLOCK_RANGE.latest);

/** A clock change (or a stored clock) that would take the sandbox's time out of CLOCK_RANGE. */
class ClockRangeError extends UsageError {}

const RANGE_TEXT = `the sandbox's clock runs from ${CLOCK_RANGE.earliest} to ${CLOCK_RANGE.latest}`;

function inRange(ms: number): boolean {
  return Number.isFinite(ms) && ms >= EARLIEST_MS && ms <= LATEST_MS;
}

/** The time `offset` from `realNow`, when it is in range; else a ClockRangeError saying `what`. */
export function timeAt(realNow: Date, offset: number, what: string, hint?: string): Date {
  const ms = realNow.getTime() + offset;
  if (!Number.isSafeInteger(offset) || !inRange(ms)) throw new ClockRangeError(`${what}: ${RANGE_TEXT}.`, hint);
  return new Date(ms);
}

/** The stored offset cannot be believed (written by hand, or by a version without the range). */
const STORED_HINT = 'Run `loanctl sandbox clock reset`, then set it again.';

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
    try {
      return timeAt(realNow(), row?.offset_ms ?? 0, "The sandbox's stored clock is out of range", STORED_HINT);
    } catch (error) {
      // Every request answers this envelope (nothing written) until the clock is reset.
      throw fail(500, `${(error as Error).message} ${STORED_HINT}`);
    }
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The sandbox's time when the operation's work read it (../app.ts `serve`): its reply's Date header. */
    sandboxNow: Date | undefined;
  }
}

/**
 * The Date header tells the sandbox's clock (`loanctl sandbox clock`), not the machine's: the CLI
 * takes ages and "today" from it, as it would from a real server's (docs/architecture.md#output).
 * An operation's reply tells the time its work read (a statement fewer per request); any other
 * reply reads the clock. A clock stored out of range throws: then the reply (which says so) keeps
 * Node's Date.
 */
export function tellTimeInDateHeader(app: FastifyInstance, now: () => Date): void {
  app.decorateRequest('sandboxNow', undefined);
  app.addHook('onSend', (request, reply, payload, done) => {
    const clock = request.sandboxNow ?? sandboxTime(now);
    if (clock) reply.header('date', clock.toUTCString());
    done(null, payload);
  });
}

/** The sandbox's clock, or undefined when the stored one is out of range (every reply says so). */
function sandboxTime(now: () => Date): Date | undefined {
  try {
    return now();
  } catch {
    return undefined;
  }
}

export function readClock(db: SandboxDb, realNow: Date = new Date()): ClockState {
  const offset = readOffset(db.sqlite);
  return { now: timeAt(realNow, offset, "The sandbox's stored clock is out of range", STORED_HINT), offset_ms: offset };
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
  if (!inRange(at.getTime())) throw new ClockRangeError(`That time is out of range: ${RANGE_TEXT}.`);
  db.transaction(() => writeOffset(db, at.getTime() - realNow.getTime()));
  return readClock(db, realNow);
}

/** Moves the sandbox's time by `ms` (negative moves it back). */
export function advanceClock(db: SandboxDb, ms: number, realNow: Date = new Date()): ClockState {
  db.transaction(() => {
    const offset = readOffset(db.sqlite) + ms;
    timeAt(realNow, offset, `Moving it by ${formatDuration(ms)} would take it out of range`);
    writeOffset(db, offset);
  });
  return readClock(db, realNow);
}

/** Back to real time. */
export function resetClock(db: SandboxDb, realNow: Date = new Date()): ClockState {
  db.transaction(() => db.sqlite.prepare('DELETE FROM sandbox_clock').run());
  return readClock(db, realNow);
}

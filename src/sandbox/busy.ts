/**
 * A write that meets another process's write lock (a `loanctl sandbox org create`, a script with
 * the sqlite3 shell, a second server on the same data dir).
 *
 * node:sqlite is synchronous: SQLite's own busy timeout would sleep in the event loop's thread and
 * stall every request, reads included, for as long as it waits. So the server's connection fails
 * at once with SQLITE_BUSY (db.ts `failFastOnLock`) and the request is run again after a short,
 * growing pause on a timer, while other requests are served; reads never need the lock (WAL). A
 * request that still cannot get the lock after `waitMs` is answered with the 503 envelope below.
 * Running it again is safe: a request that hit SQLITE_BUSY rolled its transaction back.
 */
import type { Outcome } from './envelope.js';

/** How long a request keeps trying to get the write lock before it answers 503 (ms). */
const LOCK_WAIT_MS = 5_000;
const FIRST_PAUSE_MS = 5;
const LONGEST_PAUSE_MS = 100;

export const BUSY_MESSAGE =
  'The sandbox database is locked by another process; nothing was changed. Try again once that process is done';

/** SQLITE_BUSY and its extended codes (SQLITE_BUSY_RECOVERY, _SNAPSHOT, _TIMEOUT). */
export function isBusy(error: unknown): boolean {
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  return typeof errcode === 'number' && (errcode & 0xff) === 5;
}

function busyOutcome(): Outcome {
  return { http: 503, status: 'error', message: BUSY_MESSAGE };
}

type Attempt<T> = () => T | Promise<T>;

/**
 * `attempt()`, and again while it fails with SQLITE_BUSY, for up to `waitMs`; then the 503
 * envelope. The first try is made synchronously, so a request that gets the lock (nearly all)
 * costs no timer or microtask.
 */
export function retryWhileBusy<T>(attempt: Attempt<T>, waitMs = LOCK_WAIT_MS): T | Promise<T | Outcome> {
  try {
    const outcome = attempt();
    return outcome instanceof Promise ? outcome.catch((error) => retryLater(attempt, error, waitMs)) : outcome;
  } catch (error) {
    return retryLater(attempt, error, waitMs);
  }
}

async function retryLater<T>(attempt: Attempt<T>, first: unknown, waitMs: number): Promise<T | Outcome> {
  const deadline = Date.now() + waitMs;
  let error = first;
  for (let pause = FIRST_PAUSE_MS; isBusy(error); pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    const left = deadline - Date.now();
    if (left <= 0) return busyOutcome();
    // Jitter, so that requests queued behind one lock do not all wake at the same moment.
    await sleep(Math.min(left, pause / 2 + Math.random() * pause));
    try {
      return await attempt();
    } catch (next) {
      error = next;
    }
  }
  throw error;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

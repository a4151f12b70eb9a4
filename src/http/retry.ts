/**
 * When the client repeats a request and how long it waits first (docs/guide.md#network): at
 * most 3 retries, exponential backoff with jitter, at most 30 s of waiting in all, `Retry-After`
 * honoured. Which failures are safe to repeat at all is ./network-failure.ts's and the status's.
 */

import type { HttpMethod } from '../contract/operations.js';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Most time spent waiting between attempts, in all; a longer Retry-After ends the retries. */
  maxTotalWaitMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 250, maxDelayMs: 8_000, maxTotalWaitMs: 30_000 };

export function retryableStatus(status: number, method: HttpMethod): boolean {
  if (status === 429) return true; // refused before any work was done: safe for every method
  return method === 'GET' && (status === 502 || status === 503 || status === 504);
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined if absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now.getTime());
}

/** The wait before attempt `attempt + 1`; `random` is in [0, 1). */
export function backoff(policy: RetryPolicy, attempt: number, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  // "Equal jitter": half fixed, half random, so retries of many clients spread out.
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** A wait or a limit as a person reads it: `250 ms`, `1.5 s`. */
export function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}

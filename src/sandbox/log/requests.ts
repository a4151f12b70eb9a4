/**
 * Asserting on what the sandbox received: the requests that match (method, path glob, status,
 * since), and whether a count of them holds, with a readable difference when it does not (the
 * requests that matched, and the nearest of those that did not, as WireMock's "near misses").
 * One module for the three ways to ask: `startSandbox()`'s handle (src/sandbox-api.ts),
 * `GET /__sandbox/requests` (../control-routes.ts) and `loanctl sandbox verify`.
 */
import type { DatabaseSync } from 'node:sqlite';
import { distance } from 'fastest-levenshtein';
import { type LogFilter, newestEntries, unknownStatus } from './query.js';
import type { LogRow } from './store.js';

export interface RequestMatch {
  /** GET, POST, … (any case). */
  method?: string | undefined;
  /** The path, or a glob of it (`/api/v1/loan_request/*`: `*` within a segment, `**` across). */
  path?: string | undefined;
  /** As `sandbox logs --status`: `2xx`, `404`, `error`, `no-access`, `refused`… (comma-separated). */
  status?: string | number | undefined;
  /** Only requests answered at or after this ISO 8601 time. */
  since?: string | undefined;
}

/** The most requests one question returns, newest kept. */
export const MAX_REQUESTS = 10_000;

/** A problem with the question itself (an unknown status, a time that is not one), for a usage error or a 400. */
export class RequestMatchError extends Error {
  override name = 'RequestMatchError';
}

function filterOf(match: RequestMatch): LogFilter {
  const statuses = String(match.status ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
  const unknown = unknownStatus(statuses);
  if (unknown !== undefined) {
    throw new RequestMatchError(
      `status "${unknown}" is not one: use 2xx, 4xx, 5xx, an HTTP code, success, error, exists, no-access or refused`,
    );
  }
  if (match.since !== undefined && Number.isNaN(Date.parse(match.since))) {
    throw new RequestMatchError(`since "${match.since}" is not an ISO 8601 time, e.g. 2026-01-01T09:00:00Z`);
  }
  if (match.method !== undefined && !/^[A-Za-z]{1,16}$/.test(match.method)) {
    throw new RequestMatchError(`method "${match.method}" is not an HTTP method, e.g. GET or POST`);
  }
  return {
    statuses,
    path: match.path,
    since: match.since === undefined ? undefined : new Date(match.since).toISOString(),
    method: match.method,
  };
}

/** The requests that match, oldest first (at most `limit`, the newest). */
export function matchingRequests(db: DatabaseSync, match: RequestMatch, limit = MAX_REQUESTS): LogRow[] {
  return newestEntries(db, filterOf(match), limit);
}

export interface Verdict {
  ok: boolean;
  /** How many matched. */
  found: number;
  /** One line when it holds; the difference when it does not. */
  message: string;
}

/** Requests looked through for near misses, newest first. */
const NEAR_MISS_POOL = 500;
const SHOWN = 5;

/**
 * Whether `count` requests match (exactly; at least one when `count` is undefined), and if not,
 * what came instead.
 */
export function verifyRequests(db: DatabaseSync, match: RequestMatch, count?: number): Verdict {
  const matched = matchingRequests(db, match);
  const wanted = describeMatch(match);
  const ok = count === undefined ? matched.length > 0 : matched.length === count;
  const expected = count === undefined ? 'at least 1 request' : `exactly ${count} request${count === 1 ? '' : 's'}`;
  if (ok) return { ok, found: matched.length, message: `${matched.length} matching ${wanted}: as expected.` };
  const lines = [`Expected ${expected} matching ${wanted}, found ${matched.length}.`];
  if (matched.length > 0) lines.push('Matched:', ...matched.slice(-SHOWN).map(describeRow));
  const misses = nearMisses(db, match, matched);
  lines.push(...(misses.length > 0 ? ['Nearest other requests:', ...misses.map(describeRow)] : ['No other requests.']));
  return { ok, found: matched.length, message: lines.join('\n') };
}

/** `POST /api/v1/user (status 2xx, since …)`. */
function describeMatch(match: RequestMatch): string {
  const conditions = [
    match.status !== undefined && `status ${match.status}`,
    match.since !== undefined && `since ${match.since}`,
  ].filter(Boolean);
  const request = `${match.method?.toUpperCase() ?? 'any method'} ${match.path ?? 'any path'}`;
  return conditions.length > 0 ? `${request} (${conditions.join(', ')})` : request;
}

function describeRow(row: LogRow): string {
  const query = row.query === '' ? '' : `?${row.query}`;
  const outcome = [row.status, row.why].filter((part) => part !== null).join(': ');
  return `  ${row.time} ${row.method} ${row.path}${query} → ${row.http}${outcome ? ` ${outcome}` : ''}`;
}

/** The requests that did not match, closest first by the edit distance of `METHOD path`. */
function nearMisses(db: DatabaseSync, match: RequestMatch, matched: LogRow[]): LogRow[] {
  const ids = new Set(matched.map((row) => row.id));
  const target = `${match.method?.toUpperCase() ?? ''} ${match.path ?? ''}`;
  return newestEntries(db, { statuses: [], path: undefined, since: undefined }, NEAR_MISS_POOL)
    .filter((row) => !ids.has(row.id))
    .map((row) => ({ row, score: distance(target, `${match.method ? row.method : ''} ${match.path ? row.path : ''}`) }))
    .sort((a, b) => a.score - b.score || b.row.id - a.row.id)
    .slice(0, SHOWN)
    .map(({ row }) => row);
}

/** A request as the control plane hands it out: the log's row, its contract breaks as a list. */
export type PublicRequest = Omit<LogRow, 'violations'> & { violations: unknown[] | null };

export function publicRequest(row: LogRow): PublicRequest {
  return { ...row, violations: violationsOf(row) };
}

/**
 * An entry's breaks as a list. The text is JSON as the proxy wrote it, unless key-hiding withheld
 * it whole (../log/entry.ts): then that text is the one item.
 */
export function violationsOf(row: LogRow): unknown[] | null {
  if (row.violations === null) return null;
  try {
    return JSON.parse(row.violations) as unknown[];
  } catch {
    return [row.violations];
  }
}

/** Reading the request log back (`loanctl sandbox logs`): filters, newest entries, and what came after. */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { globMatcher } from '../glob.js';
import { prepareRows } from '../repos/rows.js';
import type { LogRow } from './store.js';

export interface LogFilter {
  /** Any of: `2xx`…`5xx`, an HTTP code (`404`), an envelope status (`error`, `no-access`, …), `refused`. */
  statuses: readonly string[];
  /** A path glob (../glob.ts). */
  path: string | undefined;
  /** ISO 8601: only entries at or after this time. */
  since: string | undefined;
  /** Only requests of this method. */
  method?: string | undefined;
  /** Only requests that broke the contract (`sandbox proxy` records them). */
  violations?: boolean;
}

export const ENVELOPE_STATUSES = ['success', 'error', 'exists', 'no-access'] as const;

/** The SQL condition for one `--status` value, or undefined when the value is not one. */
function statusCondition(value: string): { sql: string; args: SQLInputValue[] } | undefined {
  const lower = value.toLowerCase();
  const klass = /^([1-5])xx$/.exec(lower);
  if (klass) return { sql: 'http BETWEEN ? AND ?', args: [Number(klass[1]) * 100, Number(klass[1]) * 100 + 99] };
  if (/^[1-5]\d\d$/.test(lower)) return { sql: 'http = ?', args: [Number(lower)] };
  if ((ENVELOPE_STATUSES as readonly string[]).includes(lower)) return { sql: 'status = ?', args: [lower] };
  if (lower === 'refused') return { sql: 'why IS NOT NULL', args: [] };
  return undefined;
}

/** A `--status` value that is not one, for the usage error; undefined when all are. */
export function unknownStatus(values: readonly string[]): string | undefined {
  return values.find((value) => statusCondition(value) === undefined);
}

function where(filter: LogFilter, afterId: number | undefined) {
  const parts: string[] = [];
  const args: SQLInputValue[] = [];
  const statuses = filter.statuses.map((value) => statusCondition(value)).filter((part) => part !== undefined);
  if (statuses.length > 0) {
    parts.push(`(${statuses.map((part) => part.sql).join(' OR ')})`);
    args.push(...statuses.flatMap((part) => part.args));
  }
  if (filter.method !== undefined) {
    parts.push('method = ?');
    args.push(filter.method.toUpperCase());
  }
  if (filter.violations) parts.push('violations IS NOT NULL');
  if (filter.since !== undefined) {
    parts.push('time >= ?');
    args.push(filter.since);
  }
  if (afterId !== undefined) {
    parts.push('id > ?');
    args.push(afterId);
  }
  return { sql: parts.length > 0 ? `WHERE ${parts.join(' AND ')}` : '', args };
}

/** The newest `limit` entries that pass `filter`, oldest first. */
export function newestEntries(db: DatabaseSync, filter: LogFilter, limit: number): LogRow[] {
  const { sql, args } = where(filter, undefined);
  const matches = filter.path === undefined ? () => true : globMatcher(filter.path);
  const rows: LogRow[] = [];
  for (const row of prepareRows<LogRow>(db, `SELECT * FROM request_log ${sql} ORDER BY id DESC`).iterate(...args)) {
    if (rows.length >= limit) break;
    if (matches(row.path)) rows.push(row);
  }
  return rows.reverse();
}

/** Every entry after `afterId` that passes `filter`, oldest first (`--follow`). */
export function entriesAfter(db: DatabaseSync, filter: LogFilter, afterId: number): LogRow[] {
  const { sql, args } = where(filter, afterId);
  const matches = filter.path === undefined ? () => true : globMatcher(filter.path);
  const rows = prepareRows<LogRow>(db, `SELECT * FROM request_log ${sql} ORDER BY id`).all(...args);
  return rows.filter((row) => matches(row.path));
}

/** The id of the newest entry (0 when none): where `--follow` starts when nothing was shown. */
export function lastId(db: DatabaseSync): number {
  const row = db.prepare('SELECT max(id) AS id FROM request_log').get() as { id: number | null };
  return row.id ?? 0;
}

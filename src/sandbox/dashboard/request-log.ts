/**
 * The request log page's source: the organisation's newest entries of the sandbox's request log
 * (../log/, the file `loanctl sandbox logs` reads), bodies left out. The file is opened for each
 * page view and closed again: it may not exist yet when the sandbox starts, and the server's
 * writer owns it.
 */
import { dirname } from 'node:path';
import { LIMIT_PARAM } from '../db.js';
import { type LogRow, openLogForReading } from '../log/store.js';
import { prepareRows } from '../repos/rows.js';
import type { RequestLogEntry, RequestLogSource } from './lists.js';

/** What the page shows of a log row: everything but the bodies. */
type Row = Pick<LogRow, 'time' | 'method' | 'path' | 'query' | 'http' | 'status' | 'ms' | 'why'>;

/** The reader of the log beside `dbPath`; undefined for a database kept in memory (no log then). */
export function requestLogReader(dbPath: string, flush: () => void): RequestLogSource | undefined {
  if (dbPath === ':memory:') return undefined;
  return (orgId, limit) => {
    // Every request answered so far, the one a moment ago too (../log/fresh.ts).
    flush();
    const db = openLogForReading(dirname(dbPath));
    if (!db) return [];
    try {
      const newest = prepareRows<Row>(
        db,
        `SELECT time, method, path, query, http, status, ms, why FROM request_log
          WHERE org_id = :org_id ORDER BY id DESC ${LIMIT_PARAM}`,
      );
      return newest.all({ org_id: orgId, limit }).map(entryOf);
    } finally {
      db.close();
    }
  };
}

function entryOf(row: Row): RequestLogEntry {
  return {
    at: row.time,
    method: row.method,
    path: row.query === '' ? row.path : `${row.path}?${row.query}`,
    status: row.http,
    outcome: row.why ?? row.status ?? '',
    ms: Math.round(row.ms),
  };
}

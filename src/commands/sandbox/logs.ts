/** `loanctl sandbox logs`: the requests a sandbox on this data dir answered, newest last. */
import type { DatabaseSync } from 'node:sqlite';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { parseDuration } from '../../input/duration.js';
import { type Output, openOutput } from '../../output/output.js';
import { createRowWriter } from '../../output/render.js';
import { resolveOutputSettings } from '../../output/settings.js';
import { flushRunningSandbox } from '../../sandbox/log/fresh.js';
import {
  ENVELOPE_STATUSES,
  entriesAfter,
  type LogFilter,
  lastId,
  newestEntries,
  unknownStatus,
} from '../../sandbox/log/query.js';
import { publicRequest, violationsOf } from '../../sandbox/log/requests.js';
import { LOG_FIELDS, type LogRow, openLogForReading } from '../../sandbox/log/store.js';
import { describeViolations, type Violation } from '../../sandbox/proxy/violations.js';
import { parseWholeNumber, resolveDataDir } from './run-helpers.js';

export interface SandboxLogsOptions {
  dataDir?: string;
  follow?: boolean;
  status?: string;
  path?: string;
  since?: string;
  limit?: string;
  /** Only the requests that broke the contract (`sandbox proxy`), with where. */
  violations?: boolean;
  /** For tests: stop following when this aborts, instead of (as well as) on SIGINT/SIGTERM. */
  stopSignal?: AbortSignal;
}

/** The columns of a table when --fields does not choose. */
const TABLE_FIELDS = ['time', 'org_id', 'method', 'path', 'http', 'status', 'ms', 'why'];
/** With --violations: where each broke the contract, instead of the envelope's status and why. */
const VIOLATION_FIELDS = ['time', 'method', 'path', 'http', 'violations'];
const POLL_MS = 250;

export async function runSandboxLogs(options: SandboxLogsOptions, deps: Deps): Promise<void> {
  const dataDir = resolveDataDir(options.dataDir, deps);
  const filter = parseFilter(options, deps);
  const limit = parseWholeNumber(options.limit ?? (options.follow ? '10' : '50'), '--limit', 1, 1_000_000);
  const settings = resolveOutputSettings(deps.globals, deps.env, deps.io);
  const fields =
    settings.output === 'table' && !settings.fields
      ? options.violations
        ? VIOLATION_FIELDS
        : TABLE_FIELDS
      : undefined;
  // Opened first: a --fields naming none of an entry's fields is exit 2 before the log is read.
  // --fields may name any field of an entry, whether or not any entry matches.
  const output = await openOutput(deps, { names: () => LOG_FIELDS }, fields ? { fields } : {});

  // A request answered a moment ago may still be in the running server's batch (log/fresh.ts).
  await flushRunningSandbox(dataDir);
  const db = openLogForReading(dataDir);
  if (!db && !options.follow) {
    deps.io.stderr.write(`No requests logged yet in ${dataDir}: start a sandbox there and send it a request.\n`);
    if (settings.output === 'json') deps.io.stdout.write('[]\n');
    return;
  }
  try {
    const shown = db ? newestEntries(db, filter, limit) : [];
    if (!options.follow) {
      if (shown.length === 0 && settings.output === 'table') deps.io.stderr.write('No requests match.\n');
      else await output.print(forTable(shown, fields));
      return;
    }
    await follow(dataDir, db, filter, shown, { output, fields }, options.stopSignal, deps);
  } finally {
    db?.close();
  }
}

/**
 * In the default table, the time to the millisecond, in UTC (a log is read to the second; the
 * table's usual timestamps stop at the minute).
 */
function forTable(rows: LogRow[], fields: string[] | undefined): unknown[] {
  if (!fields) return rows.map(publicRequest);
  return rows.map((row) => ({
    ...row,
    time: `${row.time.replace('T', ' ').replace('Z', '')} UTC`,
    violations: row.violations === null ? null : describeViolations(violationsOf(row) as Array<Violation | string>),
  }));
}

function parseFilter(options: SandboxLogsOptions, deps: Deps): LogFilter {
  const statuses = (options.status ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
  const unknown = unknownStatus(statuses);
  if (unknown !== undefined) {
    throw new UsageError(
      `--status: "${unknown}" is not a status.`,
      `Use 2xx, 4xx, 5xx, an HTTP code such as 404, ${ENVELOPE_STATUSES.join(', ')}, or refused (comma-separated).`,
    );
  }
  const since =
    options.since === undefined
      ? undefined
      : new Date(deps.now().getTime() - parseDuration(options.since, '--since')).toISOString();
  return { statuses, path: options.path, since, violations: options.violations === true };
}

/**
 * Prints what is there, then each new entry as the sandbox writes it, until Ctrl-C. A table is
 * printed a batch at a time (its columns fit each batch); JSON stays one array, closed on stop.
 */
async function follow(
  dataDir: string,
  opened: DatabaseSync | undefined,
  filter: LogFilter,
  shown: LogRow[],
  { output, fields }: { output: Output; fields: string[] | undefined },
  stopSignal: AbortSignal | undefined,
  deps: Deps,
): Promise<void> {
  const stop = stopController(stopSignal);
  const table = resolveOutputSettings(deps.globals, deps.env, deps.io).output === 'table';
  const writer = createRowWriter(undefined, deps, fields ? { fields } : {});
  const print = async (rows: LogRow[]) => {
    if (rows.length === 0) return;
    if (table) await output.print(forTable(rows, fields));
    else await writer.write(rows.map(publicRequest));
  };
  let db = opened;
  let after = shown.at(-1)?.id ?? (db ? lastId(db) : 0);
  try {
    await print(shown);
    while (!stop.signal.aborted) {
      await deps.sleep(POLL_MS, stop.signal);
      db ??= openLogForReading(dataDir);
      if (!db || stop.signal.aborted) continue;
      const rows = entriesAfter(db, filter, after);
      after = rows.at(-1)?.id ?? after;
      await print(rows);
    }
    if (!table) await writer.end();
  } finally {
    stop.dispose();
    if (db !== opened) db?.close();
  }
}

/** Aborts on SIGINT or SIGTERM (following ends normally: exit 0), or when `signal` does. */
function stopController(signal: AbortSignal | undefined) {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  if (signal?.aborted) stop();
  signal?.addEventListener('abort', stop, { once: true });
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      signal?.removeEventListener('abort', stop);
    },
  };
}

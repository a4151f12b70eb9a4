/**
 * Reset, snapshot and restore of a data dir's database, safe while a server serves it:
 * - a snapshot is `VACUUM INTO` (a consistent copy read inside one read transaction, beside WAL
 *   writers), written to a temporary name and renamed, so a snapshot that exists is whole;
 * - reset empties tables, and restore empties them and copies the snapshot's rows in, each in one
 *   write transaction on the live database (ATTACH, DELETE, INSERT … SELECT): a request served at
 *   the same time sees either the old state or the new one, never half of each, and the server's
 *   connection stays valid. Its writes wait for the lock meanwhile (busy.ts: 503 after 5 s).
 *
 * Fast at a million rows (bench/restore.mjs): this connection turns its foreign-key checks off
 * (the server's stay on), so SQLite empties a table by freeing its pages instead of deleting row by
 * row and checking each child table, and copies a snapshot's table into an empty one of the same
 * shape page by page (its "transfer optimisation") instead of row by row. Nothing is lost by it:
 * whole tables go, children with their parents, and a snapshot was whole when it was taken.
 *
 * Ids keep increasing: the tables are AUTOINCREMENT (repos/migration-ids.ts), and neither emptying
 * a table nor copying rows into it lowers its `sqlite_sequence`, so after a restore each table's
 * next id is above both what it held before and what the snapshot holds.
 * A snapshot is checked first (./snapshot-check.ts): ids up to MAX_ID only, so the sequences stay
 * far from SQLite's last id; one found above it is brought down by the next reset or restore. A
 * snapshot this sandbox took and checked is sealed (./snapshot-seal.ts), so restoring it again does
 * not read every row to check it (docs/decisions/snapshot-seal.md).
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { SandboxDb } from '../db.js';
import { sqliteFileFailure } from '../trouble.js';
import { checkSnapshotFile, checkSnapshotShape, MAX_ID, SnapshotError, sealIfSound } from './snapshot-check.js';
import { writeSeal } from './snapshot-seal.js';

export { SnapshotError };

/** Everything a borrower brings, children first (the order rows are deleted in). */
const BORROWER_TABLES = [
  'documents',
  'guarantors',
  'employment',
  'business_info',
  'bank_details',
  'loan_requests',
  'users',
] as const;
/** The rest, children first. */
const ADMIN_TABLES = ['products', 'api_keys', 'organisations', 'sandbox_clock', 'faults'] as const;
const ALL_TABLES = [...BORROWER_TABLES, ...ADMIN_TABLES];

/** What reset and restore print of each table (`removed.users`, `rows.loan_requests`…). */
export function perTableFields(parent: string): string[] {
  return [parent, ...ALL_TABLES.map((table) => `${parent}.${table}`)];
}

const SNAPSHOT_DIR = 'snapshots';
const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export interface SnapshotEntry {
  name: string;
  bytes: number;
  taken_at: string;
}

/** The fields of a SnapshotEntry, as `sandbox snapshot` and `snapshot list` print them. */
export const SNAPSHOT_FIELDS: readonly (keyof SnapshotEntry)[] = ['name', 'bytes', 'taken_at'];

/** Empties borrowers, loan requests and their attachments; `all` empties organisations, keys, products and the clock too. */
export function resetData(db: SandboxDb, all = false): Record<string, number> {
  const tables = all ? ALL_TABLES : BORROWER_TABLES;
  return withoutForeignKeyChecks(db, () =>
    db.transaction(() => {
      const removed = Object.fromEntries(tables.map((table) => [table, emptyTable(db, table)]));
      lowerRunawaySequences(db);
      return removed;
    }),
  );
}

/**
 * Ids keep increasing, but not past MAX_ID: a sequence above it (left by a snapshot restored
 * before snapshots were checked, or by a hand-edited database) would make every later insert of
 * its table fail. Such a sequence goes down to the highest id its table still holds.
 */
function lowerRunawaySequences(db: SandboxDb): void {
  for (const { name } of db.sqlite.prepare('SELECT name FROM main.sqlite_sequence WHERE seq > ?').all(MAX_ID) as Array<{
    name: string;
  }>) {
    if (!(ALL_TABLES as readonly string[]).includes(name)) continue;
    db.sqlite
      .prepare(`UPDATE main.sqlite_sequence SET seq = (SELECT coalesce(max(id), 0) FROM main.${name}) WHERE name = ?`)
      .run(name);
  }
}

/**
 * The rows removed; DELETE of a whole table frees its pages at once (no foreign-key checks here),
 * and still reports how many rows it removed.
 */
function emptyTable(db: SandboxDb, table: string): number {
  return Number(db.sqlite.prepare(`DELETE FROM main.${table}`).run().changes);
}

function rowCount(db: SandboxDb, table: string): number {
  return Number((db.sqlite.prepare(`SELECT count(*) AS n FROM main.${table}`).get() as { n: number }).n);
}

/** What an operator counts: borrowers and loan requests (the attachments go with them). */
export type DataCounts = { users: number; loan_requests: number };

export function countRows(db: SandboxDb): DataCounts {
  return { users: rowCount(db, 'users'), loan_requests: rowCount(db, 'loan_requests') };
}

/** `12 users, 220 loan requests`. */
export function describeCounts(counts: Readonly<Record<string, number>>): string {
  const plural = (n = 0, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
  return `${plural(counts.users, 'user')}, ${plural(counts.loan_requests, 'loan request')}`;
}

/**
 * Runs `work` with this connection's foreign-key checks off (a pragma that only takes effect
 * outside a transaction), and on again after.
 */
function withoutForeignKeyChecks<T>(db: SandboxDb, work: () => T): T {
  db.sqlite.exec('PRAGMA foreign_keys = OFF');
  try {
    return work();
  } finally {
    db.sqlite.exec('PRAGMA foreign_keys = ON');
  }
}

function snapshotPath(dataDir: string, name: string): string {
  if (!SNAPSHOT_NAME.test(name)) {
    throw new SnapshotError(
      `"${name}" is not a snapshot name: use letters, digits, '.', '_' or '-' (at most 64, starting with a letter or digit)`,
    );
  }
  return join(dataDir, SNAPSHOT_DIR, `${name}.db`);
}

/**
 * Takes snapshot `name`. A seal that cannot be written (a full disk, say) costs only speed: the
 * snapshot is whole without it, and a restore of it checks every value; `unsealed` is told why.
 */
export function takeSnapshot(
  db: SandboxDb,
  dataDir: string,
  name: string,
  replace = false,
  unsealed: (error: unknown) => void = () => {},
): SnapshotEntry {
  const file = snapshotPath(dataDir, name);
  if (existsSync(file) && !replace) throw new SnapshotError(`a snapshot named "${name}" exists already`);
  mkdirSync(join(dataDir, SNAPSHOT_DIR), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  db.sqlite.prepare('VACUUM INTO ?').run(temporary);
  chmodSync(temporary, 0o600); // it holds key hashes and borrowers' data, as the database does
  // Checked once here, so a restore of these bytes need not read every row again.
  const seal = sealIfSound(temporary, name, db.sqlite);
  renameSync(temporary, file);
  try {
    writeSeal(file, seal);
  } catch (error) {
    unsealed(error);
  }
  return entryOf(file, name);
}

function entryOf(file: string, name: string): SnapshotEntry {
  const stat = statSync(file);
  return { name, bytes: stat.size, taken_at: stat.mtime.toISOString() };
}

export function listSnapshots(dataDir: string): SnapshotEntry[] {
  const dir = join(dataDir, SNAPSHOT_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.db'))
    .map((file) => entryOf(join(dir, file), file.slice(0, -'.db'.length)))
    .sort((a, b) => a.taken_at.localeCompare(b.taken_at) || a.name.localeCompare(b.name));
}

/** The borrowers and loan requests in snapshot `name` (for the question before a restore). */
export function snapshotCounts(db: SandboxDb, dataDir: string, name: string): DataCounts {
  const file = existingSnapshot(dataDir, name);
  checkSnapshotShape(file, name, db.sqlite);
  const snapshot = new DatabaseSync(file, { readOnly: true });
  try {
    const count = (table: string) =>
      Number((snapshot.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
    return { users: count('users'), loan_requests: count('loan_requests') };
  } finally {
    snapshot.close();
  }
}

/** Replaces the live database's rows with the snapshot's, in one transaction. */
export function restoreSnapshot(db: SandboxDb, dataDir: string, name: string): Record<string, number> {
  const file = existingSnapshot(dataDir, name);
  checkSnapshotFile(file, name, db.sqlite);
  db.sqlite.prepare('ATTACH DATABASE ? AS snap').run(file);
  try {
    return withoutForeignKeyChecks(db, () =>
      db.transaction(() => {
        for (const table of ALL_TABLES) emptyTable(db, table);
        const counts: Record<string, number> = {};
        for (const table of [...ALL_TABLES].reverse()) counts[table] = copyTable(db, table);
        lowerRunawaySequences(db);
        return counts;
      }),
    );
  } catch (error) {
    throw copyFailure(error, db, name);
  } finally {
    db.sqlite.exec('DETACH DATABASE snap');
  }
}

/**
 * What a failure half-way through the copy means, the restore undone by then (every table's rows
 * are as they were): a snapshot damaged where the checks do not read (a page SQLite finds
 * malformed only when it copies it) is a SnapshotError like every refusal; a disk that failed is
 * an error with the system error's `code` (EIO, ENOSPC…), as a file's own error carries. Anything
 * else is returned as it is.
 */
function copyFailure(error: unknown, db: SandboxDb, name: string): unknown {
  if ((error as { code?: unknown } | undefined)?.code !== 'ERR_SQLITE_ERROR') return error;
  const reason = (error as Error).message;
  const disk = sqliteFileFailure(error);
  if (disk) return Object.assign(new Error(reason, { cause: error }), { code: disk });
  if (snapshotDamage(db)) {
    return new SnapshotError(
      `snapshot "${name}" is damaged (${reason}), so nothing of it was restored; take a new snapshot`,
    );
  }
  return error;
}

/** The first problem SQLite's own check finds in the attached snapshot's pages, else undefined. */
function snapshotDamage(db: SandboxDb): string | undefined {
  try {
    const found = String(Object.values(db.sqlite.prepare('PRAGMA snap.quick_check(1)').get() ?? {})[0]);
    return found === 'ok' ? undefined : found;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Copies the snapshot's rows of `table` into the emptied live table; the rows copied. OR ROLLBACK:
 * a conflict ends the whole restore, undone, as any failure of it does; said so, SQLite keeps no
 * statement journal for the copy (a temporary copy of every page it reuses, which a statement
 * that may fail half-way needs; docs/decisions/snapshot-seal.md). A table with an index on a
 * function's result (users) still gets one: the function might fail.
 */
function copyTable(db: SandboxDb, table: string): number {
  return Number(db.sqlite.prepare(`INSERT OR ROLLBACK INTO main.${table} SELECT * FROM snap.${table}`).run().changes);
}

function existingSnapshot(dataDir: string, name: string): string {
  const file = snapshotPath(dataDir, name);
  if (!existsSync(file)) throw new SnapshotError(`there is no snapshot named "${name}"`);
  return file;
}

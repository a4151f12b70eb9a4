/**
 * Reset, snapshot and restore of a data dir's database, safe while a server serves it:
 * - reset deletes rows in one transaction; the server keeps no cache, so its next request sees it;
 * - a snapshot is `VACUUM INTO` (a consistent copy read inside one read transaction, beside WAL
 *   writers), written to a temporary name and renamed, so a snapshot that exists is whole;
 * - restore replaces every table's rows from the snapshot inside one write transaction on the live
 *   database (ATTACH, DELETE, INSERT … SELECT): a request served at the same time sees either the
 *   old state or the restored one, never half of each, and the server's connection stays valid.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxDb } from '../db.js';

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

export const SNAPSHOT_DIR = 'snapshots';
const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export class SnapshotError extends Error {
  override name = 'SnapshotError';
}

export interface SnapshotEntry {
  name: string;
  bytes: number;
  taken_at: string;
}

/** Empties borrowers, loan requests and their attachments; `all` empties organisations, keys, products and the clock too. */
export function resetData(db: SandboxDb, all = false): Record<string, number> {
  const tables = all ? ALL_TABLES : BORROWER_TABLES;
  return db.transaction(() =>
    Object.fromEntries(tables.map((table) => [table, Number(db.sqlite.prepare(`DELETE FROM ${table}`).run().changes)])),
  );
}

export function snapshotPath(dataDir: string, name: string): string {
  if (!SNAPSHOT_NAME.test(name)) {
    throw new SnapshotError(
      `"${name}" is not a snapshot name: use letters, digits, '.', '_' or '-' (at most 64, starting with a letter or digit)`,
    );
  }
  return join(dataDir, SNAPSHOT_DIR, `${name}.db`);
}

export function takeSnapshot(db: SandboxDb, dataDir: string, name: string, replace = false): SnapshotEntry {
  const file = snapshotPath(dataDir, name);
  if (existsSync(file) && !replace) throw new SnapshotError(`a snapshot named "${name}" exists already`);
  mkdirSync(join(dataDir, SNAPSHOT_DIR), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  db.sqlite.prepare('VACUUM INTO ?').run(temporary);
  chmodSync(temporary, 0o600); // it holds key hashes and borrowers' data, as the database does
  renameSync(temporary, file);
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

/** Replaces the live database's rows with the snapshot's, in one transaction. */
export function restoreSnapshot(db: SandboxDb, dataDir: string, name: string): Record<string, number> {
  const file = snapshotPath(dataDir, name);
  if (!existsSync(file)) throw new SnapshotError(`there is no snapshot named "${name}"`);
  db.sqlite.prepare('ATTACH DATABASE ? AS snap').run(file);
  try {
    const version = (db.sqlite.prepare('PRAGMA snap.user_version').get() as { user_version: number }).user_version;
    if (version !== db.version()) {
      throw new SnapshotError(
        `snapshot "${name}" has schema version ${version}, this sandbox ${db.version()}; take a new snapshot`,
      );
    }
    return db.transaction(() => {
      for (const table of ALL_TABLES) db.sqlite.prepare(`DELETE FROM main.${table}`).run();
      const counts: Record<string, number> = {};
      for (const table of [...ALL_TABLES].reverse()) {
        counts[table] = Number(
          db.sqlite.prepare(`INSERT INTO main.${table} SELECT * FROM snap.${table}`).run().changes,
        );
      }
      return counts;
    });
  } finally {
    db.sqlite.exec('DETACH DATABASE snap');
  }
}

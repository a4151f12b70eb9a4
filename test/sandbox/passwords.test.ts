/**
 * The sandbox keeps no password-derived value. A borrower's password is checked
 * by nothing, so nothing of it is stored: not in `sandbox.db`, not in a snapshot, and a database
 * made by an older sandbox (salted scrypt hashes in `users.password_hash`) loses them when it is
 * opened, freed space included.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { takeSnapshot } from '../../src/sandbox/control/state.js';
import { dbPathFor, SandboxDb } from '../../src/sandbox/db.js';
import { MIGRATIONS } from '../../src/sandbox/repos/migrations.js';
import { call, openSandbox, seedLoanRequest, tempDir, userBody } from '../helpers/sandbox.js';

const dirs: string[] = [];
afterEach(() => {
  for (const made of dirs.splice(0)) rmSync(made, { recursive: true, force: true });
});

/** The bytes of a database file and its WAL, as text any stored value would show in. */
function fileText(path: string): string {
  return [path, `${path}-wal`]
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file, 'latin1'))
    .join('\n');
}

function userColumns(path: string): string[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return (db.prepare('PRAGMA table_info(users)').all() as Array<{ name: string }>).map((column) => column.name);
  } finally {
    db.close();
  }
}

describe('passwords', () => {
  it('a bulk of borrowers leaves no password, hash or column for one in sandbox.db or a snapshot', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const sandbox = await openSandbox({ dataDir });
    const passwords = Array.from({ length: 40 }, (_, n) => `Canary-Passw0rd-${n}-${'x'.repeat(n % 7)}`);
    for (const password of passwords) {
      const reply = await call(sandbox.app, 'createUser', { key: sandbox.org.api_key, body: userBody({ password }) });
      expect(reply.json.status).toBe('success');
    }
    const db = SandboxDb.open(sandbox.dbPath);
    const snapshotFile = join(sandbox.dataDir, 'snapshots', 'after-import.db');
    takeSnapshot(db, sandbox.dataDir, 'after-import');
    db.close();
    const live = fileText(sandbox.dbPath);
    await sandbox.close();
    expect(userColumns(snapshotFile).filter((name) => /pass/i.test(name))).toEqual([]);
    for (const [name, text] of [
      ['sandbox.db', live],
      ['snapshot', fileText(snapshotFile)],
    ] as const) {
      expect(text.match(/scrypt\$/g) ?? [], name).toEqual([]);
      expect(
        passwords.filter((password) => text.includes(password)),
        name,
      ).toEqual([]);
    }
  });

  it('an older database loses its password hashes when opened, freed space included; users and their loans stay', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const path = dbPathFor(dataDir);
    // A database at schema version 4, as sandboxes made it before passwords were dropped: every
    // user with a salted scrypt hash.
    const old = new DatabaseSync(path);
    old.exec('PRAGMA journal_mode = WAL');
    for (const migration of MIGRATIONS.slice(0, 4)) old.exec(migration);
    old.exec('PRAGMA user_version = 4');
    old.exec(`INSERT INTO organisations (name, created_at) VALUES ('Old Lender', '2026-01-01T00:00:00.000Z')`);
    const insertUser = old.prepare(
      `INSERT INTO users (org_id, firstname, lastname, email, phone, gender, password_hash, reference, source,
                          is_active, created_at, updated_at, org_seq)
       VALUES (1, 'Old', 'User', ?, '+2348012345678', 'female', ?, ?, 'api', 1, '2026-01-01', '2026-01-01', ?)`,
    );
    // Enough users to split pages while inserting: the copies that leaves in freed space must go too.
    for (let n = 1; n <= 600; n++) {
      insertUser.run(`old-${n}@example.com`, `scrypt$16$1$1$T0xEU0FMVA==$OLDHASH${n}CANARY`, `REF${n}`, n);
    }
    old.close();

    // The current sandbox opens it (migrating) and takes new borrowers and loan requests.
    const sandbox = await openSandbox({ dataDir });
    await seedLoanRequest(sandbox.app, sandbox.org);
    await sandbox.close();

    expect(userColumns(path)).not.toContain('password_hash');
    const db = new DatabaseSync(path);
    expect(db.prepare('SELECT count(*) AS n FROM users').get()).toEqual({ n: 601 });
    expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    db.close();
    expect(fileText(path).match(/CANARY|scrypt\$/g) ?? []).toEqual([]);
  });
});

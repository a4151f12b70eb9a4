/**
 * A snapshot is checked before it replaces anything (src/sandbox/control/snapshot-check.ts): a
 * file that is not one this sandbox would have written is refused in one line with exit 2, the
 * data untouched. A write that fails in a way that rolls SQLite's whole transaction back fails
 * alone, not with the writes batched with it; `sandbox reset` brings a runaway id sequence down.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { execa } from 'execa';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOrganisation, createProduct } from '../../src/sandbox/admin.js';
import { buildSandbox } from '../../src/sandbox/app.js';
import { dbPathFor, SandboxDb } from '../../src/sandbox/db.js';
import { assertBuilt, BIN, ROOT } from '../helpers/cli.js';
import { runCli } from '../helpers/run-cli.js';
import { call, type Org, seedLoanRequest, snapshot, tempDir, userBody } from '../helpers/sandbox.js';

let dataDir: string;
let app: FastifyInstance;
let org: Org;

beforeEach(async () => {
  dataDir = tempDir();
  const made = createOrganisation(dataDir, 'Snapshot Lender');
  org = { ...made, product_id: createProduct(dataDir, made.org_id, 'Snapshot Loan').product_id };
  app = await buildSandbox({ dbPath: dbPathFor(dataDir) });
});
afterEach(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const sandbox = (...args: string[]) => runCli(['sandbox', ...args, '--data-dir', dataDir]);
const snapshotFile = (name: string) => join(dataDir, 'snapshots', `${name}.db`);

/** A good snapshot copied to `name` and changed by `change` (foreign keys off, as a hand edit would be). */
async function doctoredSnapshot(name: string, change: string): Promise<void> {
  expect((await sandbox('snapshot', 'good', '--force')).exitCode).toBe(0);
  copyFileSync(snapshotFile('good'), snapshotFile(name));
  const db = new DatabaseSync(snapshotFile(name), { enableForeignKeyConstraints: false });
  db.exec(change);
  db.close();
}

/**
 * The file and its schema are checked before the question a restore asks (which counts the
 * snapshot's rows), its values by the restore itself: `shapeOnly` runs both ways.
 */
async function expectRefused(name: string, says: RegExp, shapeOnly = false): Promise<void> {
  const before = snapshot(dbPathFor(dataDir));
  const attempts = [await sandbox('restore', name, '--yes')];
  if (shapeOnly) attempts.push(await sandbox('restore', name));
  for (const attempt of attempts) {
    expect(attempt.exitCode, attempt.stderr).toBe(2);
    const lines = attempt.stderr.trim().split('\n');
    expect(lines, attempt.stderr).toHaveLength(1);
    expect(attempt.stderr).toMatch(says);
    expect(attempt.stderr).not.toMatch(/unexpected error|--debug/);
  }
  expect(snapshot(dbPathFor(dataDir))).toEqual(before);
}

describe('a snapshot is checked before it replaces anything', () => {
  beforeEach(async () => {
    await seedLoanRequest(app, org);
  });

  it('refuses a file that is not SQLite, and a directory', async () => {
    mkdirSync(join(dataDir, 'snapshots'), { recursive: true });
    writeFileSync(snapshotFile('text'), 'id,email\n1,ada@example.com\n');
    await expectRefused('text', /snapshot "text" is not an SQLite database/i, true);
    mkdirSync(snapshotFile('folder'));
    await expectRefused('folder', /snapshot "folder" is a directory/i, true);
  });

  it('refuses a view, an extra column, a missing index', async () => {
    await doctoredSnapshot('viewed', 'CREATE VIEW everyone AS SELECT * FROM users');
    await expectRefused('viewed', /snapshot "viewed" has a view everyone this sandbox does not/i, true);
    await doctoredSnapshot('wider', 'ALTER TABLE users ADD COLUMN shoe_size INTEGER');
    await expectRefused('wider', /snapshot "wider": its table users differs .*columns shoe_size/i, true);
    await doctoredSnapshot('unindexed', 'DROP INDEX users_org_email');
    await expectRefused('unindexed', /snapshot "unindexed" has no index users_org_email/i, true);
  });

  it("refuses a BLOB e-mail and an amount of 'lots', naming the column", async () => {
    await doctoredSnapshot('blob', "UPDATE users SET email = x'00ff10'");
    await expectRefused('blob', /snapshot "blob": users\.email of row \d+ is not text/i);
    await doctoredSnapshot('lots', "UPDATE loan_requests SET amount = 'lots'");
    await expectRefused('lots', /snapshot "lots": loan_requests\.amount of row \d+ is not a number/i);
  });

  it('refuses ids out of range: the largest SQLite id, and zero', async () => {
    await doctoredSnapshot('huge', 'UPDATE users SET id = 9223372036854775807');
    await expectRefused(
      'huge',
      /snapshot "huge": users has an id out of range \(ids run from 1 to 999,999,999,999,999\)/i,
    );
    await doctoredSnapshot('zero', 'UPDATE loan_requests SET id = 0');
    await expectRefused('zero', /snapshot "zero": loan_requests has an id out of range/i);
  });

  it('a good snapshot still restores, and writes go on after it', async () => {
    expect((await sandbox('snapshot', 'fine')).exitCode).toBe(0);
    expect((await sandbox('restore', 'fine', '--yes')).exitCode).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    const created = await call(app, 'createUser', { key: org.api_key, body: userBody() });
    expect(created.json.status).toBe('success');
  });
});

describe('a snapshot that is a FIFO (the real bin, which would block for ever on it)', () => {
  it('is refused at once in one line, exit 2', async () => {
    assertBuilt();
    mkdirSync(join(dataDir, 'snapshots'), { recursive: true });
    execFileSync('mkfifo', [snapshotFile('pipe')]);
    const run = await execa(process.execPath, [BIN, 'sandbox', 'restore', 'pipe', '--yes', '--data-dir', dataDir], {
      cwd: ROOT,
      reject: false,
      // Generous for a loaded machine; a restore that opened the FIFO would never end.
      timeout: 20_000,
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
      extendEnv: false,
    });
    expect(run.timedOut).toBe(false);
    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim()).toMatch(/^loanctl: Snapshot "pipe" is not a regular file/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('a runaway id sequence', () => {
  /** users' sequence at SQLite's last id, as a snapshot restored before the checks could leave it. */
  function runUsersToTheEnd(): void {
    const db = new DatabaseSync(dbPathFor(dataDir));
    db.exec("UPDATE sqlite_sequence SET seq = 9223372036854775807 WHERE name = 'users'");
    db.close();
  }

  it('fails only the write that met it, never the others of its group commit', async () => {
    runUsersToTheEnd();
    const db = SandboxDb.open(dbPathFor(dataDir));
    try {
      const insertOrganisation = (name: string) => () =>
        db.sqlite.prepare("INSERT INTO organisations (name, created_at) VALUES (?, 't')").run(name);
      const insertUser = () =>
        db.sqlite
          .prepare(
            `INSERT INTO users (org_id, firstname, lastname, email, phone, gender, reference, source, is_active,
                                created_at, updated_at, org_seq)
             VALUES (?, 'A', 'B', 'x@example.com', '+234', 'female', 'ref-x', 'api', 1, 't', 't', 1)`,
          )
          .run(org.org_id);
      // Three writes queued in one turn: one group commit.
      const outcomes = await Promise.allSettled([
        db.write(insertOrganisation('Before')),
        db.write(insertUser),
        db.write(insertOrganisation('After')),
      ]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      const names = db.sqlite.prepare("SELECT name FROM organisations WHERE name IN ('Before', 'After')").all();
      expect(names.map((row) => row.name).sort()).toEqual(['After', 'Before']);
    } finally {
      db.close();
    }
  });

  it('`sandbox reset` brings it down: users can be created again', async () => {
    runUsersToTheEnd();
    const stuck = await call(app, 'createUser', { key: org.api_key, body: userBody() });
    expect(stuck.json.status).toBe('error');
    expect((await sandbox('reset', '--yes')).exitCode).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    const created = await call(app, 'createUser', { key: org.api_key, body: userBody() });
    expect(created.json.status).toBe('success');
  });
});

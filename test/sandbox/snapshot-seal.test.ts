/**
 * A snapshot's seal (src/sandbox/control/snapshot-seal.ts): `sandbox snapshot` checks the values of
 * the file it wrote and seals it, so a restore of those very bytes need not read every row again.
 * What a user relies on: a snapshot changed after it was taken, in place and with its seal beside
 * it, is still checked and refused; a seal remade by a common tool vouches for nothing; a snapshot
 * of a database holding a wrong value earns no seal; a restore leaves the snapshot as sealed as it
 * found it.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { execa } from 'execa';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOrganisation, createProduct } from '../../src/sandbox/admin.js';
import { buildSandbox } from '../../src/sandbox/app.js';
import { checkSnapshotFile } from '../../src/sandbox/control/snapshot-check.js';
import { sealOfOpenFile, writeSeal, writtenSeal } from '../../src/sandbox/control/snapshot-seal.js';
import { dbPathFor } from '../../src/sandbox/db.js';
import { assertBuilt, BIN, ROOT } from '../helpers/cli.js';
import { runCli } from '../helpers/run-cli.js';
import { type Org, seedLoanRequest, snapshot, tempDir } from '../helpers/sandbox.js';

let dataDir: string;
let app: FastifyInstance;
let org: Org;

beforeEach(async () => {
  dataDir = tempDir();
  const made = createOrganisation(dataDir, 'Seal Lender');
  org = { ...made, product_id: createProduct(dataDir, made.org_id, 'Seal Loan').product_id };
  app = await buildSandbox({ dbPath: dbPathFor(dataDir) });
  await seedLoanRequest(app, org);
});
afterEach(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const sandbox = (...args: string[]) => runCli(['sandbox', ...args, '--data-dir', dataDir]);
const snapshotFile = (name: string) => join(dataDir, 'snapshots', `${name}.db`);
const sealFile = (name: string) => join(dataDir, 'snapshots', `${name}.seal`);

/** Runs `change` on a database file as a hand edit would (foreign keys off). */
function edit(file: string, change: string): void {
  const db = new DatabaseSync(file, { enableForeignKeyConstraints: false });
  db.exec(change);
  db.close();
}

function sealOf(file: string): string {
  const fd = openSync(file, 'r');
  try {
    return sealOfOpenFile(fd);
  } finally {
    closeSync(fd);
  }
}

const sealMatches = (name: string) => writtenSeal(snapshotFile(name)) === sealOf(snapshotFile(name));

async function expectRefused(name: string, says: RegExp): Promise<void> {
  const before = snapshot(dbPathFor(dataDir));
  const attempt = await sandbox('restore', name, '--yes');
  expect(attempt.exitCode, attempt.stderr).toBe(2);
  expect(attempt.stderr.trim().split('\n'), attempt.stderr).toHaveLength(1);
  expect(attempt.stderr).toMatch(says);
  expect(snapshot(dbPathFor(dataDir))).toEqual(before);
}

describe('a sealed snapshot', () => {
  it('is sealed when taken, and still sealed after each restore of it and after --force', async () => {
    expect((await sandbox('snapshot', 'kept')).exitCode).toBe(0);
    expect(sealMatches('kept')).toBe(true);
    for (let round = 0; round < 2; round++) {
      expect((await sandbox('restore', 'kept', '--yes')).exitCode).toBe(0);
      expect(sealMatches('kept')).toBe(true);
    }
    await seedLoanRequest(app, org);
    expect((await sandbox('snapshot', 'kept', '--force')).exitCode).toBe(0);
    expect(sealMatches('kept')).toBe(true);
    const list = await sandbox('snapshot', 'list', '-o', 'json');
    expect(JSON.parse(list.stdout).map((entry: { name: string }) => entry.name)).toEqual(['kept']);
  });

  it('that cannot be written is one warning (none under --quiet): the snapshot is taken and restores, every value checked', async () => {
    // A directory where the seal goes: the seal's rename onto it fails.
    mkdirSync(sealFile('unsealable'), { recursive: true });
    const taken = await sandbox('snapshot', 'unsealable');
    expect(taken.exitCode, taken.stderr).toBe(0);
    expect(taken.stderr).toBe(
      'warning: could not write the seal of snapshot "unsealable" (EISDIR): a restore of it checks every value, which is slower.\n',
    );
    expect(readdirSync(join(dataDir, 'snapshots')).filter((file) => file.endsWith('.tmp'))).toEqual([]);
    const quiet = await sandbox('snapshot', 'unsealable', '--force', '--quiet');
    expect(quiet.exitCode, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
    const restored = await sandbox('restore', 'unsealable', '--yes');
    expect(restored.exitCode, restored.stderr).toBe(0);
  });

  it('changed in place after it was taken, its seal beside it, is checked and refused', async () => {
    expect((await sandbox('snapshot', 'edited')).exitCode).toBe(0);
    edit(snapshotFile('edited'), "UPDATE loan_requests SET amount = 'lots'");
    await expectRefused('edited', /snapshot "edited": loan_requests\.amount of row \d+ is not a number/i);
  });

  it('changed in place, with a SHA-256 of the new bytes written as its seal, is checked and refused', async () => {
    expect((await sandbox('snapshot', 'resummed')).exitCode).toBe(0);
    edit(snapshotFile('resummed'), "UPDATE users SET email = x'00ff10'");
    // What `sha256sum` would print for the new bytes.
    const sum = createHash('sha256')
      .update(readFileSync(snapshotFile('resummed')))
      .digest('hex');
    writeFileSync(sealFile('resummed'), `${sum}\n`);
    await expectRefused('resummed', /snapshot "resummed": users\.email of row \d+ is not text/i);
  });

  it('a snapshot of a database holding a wrong value earns no seal, and its restore is refused', async () => {
    expect((await sandbox('snapshot', 'bad')).exitCode).toBe(0);
    expect(existsSync(sealFile('bad'))).toBe(true);
    edit(dbPathFor(dataDir), "UPDATE loan_requests SET amount = 'lots'");
    expect((await sandbox('snapshot', 'bad', '--force')).exitCode).toBe(0);
    expect(existsSync(sealFile('bad'))).toBe(false);
    await expectRefused('bad', /snapshot "bad": loan_requests\.amount of row \d+ is not a number/i);
  });

  it('is believed for what it seals: the rows of a file its seal matches are not read again', async () => {
    expect((await sandbox('snapshot', 'vouched')).exitCode).toBe(0);
    edit(snapshotFile('vouched'), "UPDATE loan_requests SET amount = 'lots'");
    const live = new DatabaseSync(dbPathFor(dataDir), { readOnly: true });
    try {
      // Without a seal of these bytes, the check reads the rows and finds the amount…
      expect(() => checkSnapshotFile(snapshotFile('vouched'), 'vouched', live)).toThrow(/is not a number/);
      // …with one (which only the sandbox writes, after checking them), it does not read them.
      writeSeal(snapshotFile('vouched'), sealOf(snapshotFile('vouched')));
      expect(() => checkSnapshotFile(snapshotFile('vouched'), 'vouched', live)).not.toThrow();
    } finally {
      live.close();
    }
  });

  it('vouches for its own file only: a write-ahead log left beside it has every value checked', async () => {
    expect((await sandbox('snapshot', 'logged')).exitCode).toBe(0);
    // The wrong value goes into a write-ahead log beside the sealed file: SQLite reads it with the
    // file, while the file's own bytes (and so its seal) stay as they were sealed.
    const file = snapshotFile('logged');
    const sealed = readFileSync(file);
    const writer = new DatabaseSync(file, { enableForeignKeyConstraints: false });
    writer.exec('PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0');
    writer.exec("UPDATE loan_requests SET amount = 'lots'");
    const wal = readFileSync(`${file}-wal`);
    writer.close();
    writeFileSync(file, sealed);
    writeFileSync(`${file}-wal`, wal);
    expect(sealOf(file)).toBe(writtenSeal(file));
    const live = new DatabaseSync(dbPathFor(dataDir), { readOnly: true });
    try {
      expect(() => checkSnapshotFile(file, 'logged', live)).toThrow(/is not a number/);
    } finally {
      live.close();
    }
  });

  it('a restore that meets a damaged page half-way through its copy says so in one line (exit 2) and leaves the data as it was', async () => {
    // Rows enough for the users table to span many pages, then one of its pages torn.
    edit(
      dbPathFor(dataDir),
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
       INSERT INTO users (org_id, firstname, lastname, email, phone, gender, reference, source,
                          is_active, created_at, updated_at, org_seq)
       SELECT ${org.org_id}, 'Ada', 'Grown', 'grown' || i || '@example.com', '+2348000000000', 'female',
              'grown-' || i, 'api', 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', i + 1 FROM n`,
    );
    expect((await sandbox('snapshot', 'torn')).exitCode).toBe(0);
    const probe = new DatabaseSync(snapshotFile('torn'), { readOnly: true });
    const { page, size } = probe
      .prepare(
        "SELECT pageno AS page, (SELECT page_size FROM pragma_page_size) AS size FROM dbstat WHERE name = 'users' AND pagetype = 'leaf' LIMIT 1 OFFSET 20",
      )
      .get() as { page: number; size: number };
    probe.close();
    const fd = openSync(snapshotFile('torn'), 'r+');
    writeSync(fd, Buffer.alloc(size, 0xab), 0, size, (page - 1) * size);
    closeSync(fd);
    // Sealed as if the sandbox had checked it, so the restore reaches the copy before it meets the page.
    writeSeal(snapshotFile('torn'), sealOf(snapshotFile('torn')));
    await seedLoanRequest(app, org);
    const before = snapshot(dbPathFor(dataDir));
    const attempt = await sandbox('restore', 'torn', '--yes');
    expect(attempt.exitCode, attempt.stderr).toBe(2);
    expect(attempt.stderr).toBe(
      'loanctl: Snapshot "torn" is damaged (database disk image is malformed), so nothing of it was restored; take a new snapshot.\n',
    );
    expect(snapshot(dbPathFor(dataDir))).toEqual(before);
  });
});

describe('a seal that is a FIFO (the real bin, which would block for ever reading it)', () => {
  it('is not believed and blocks nothing: the restore checks every row and succeeds', async () => {
    assertBuilt();
    expect((await sandbox('snapshot', 'piped')).exitCode).toBe(0);
    rmSync(sealFile('piped'));
    execFileSync('mkfifo', [sealFile('piped')]);
    const run = await execa(process.execPath, [BIN, 'sandbox', 'restore', 'piped', '--yes', '--data-dir', dataDir], {
      cwd: ROOT,
      reject: false,
      // Generous for a loaded machine; a restore that read the FIFO would never end.
      timeout: 20_000,
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
      extendEnv: false,
    });
    expect(run.timedOut).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
  });
});

/**
 * A full disk, said as one line naming the file and what to do (src/errors.ts localFileError),
 * never "unexpected error: ENOSPC" without a path.
 *
 * The real ENOSPC comes from /dev/full (Linux) and from a small tmpfs filled to the brim: the
 * tmpfs needs the right to mount (root in a container); where it is missing those cases are
 * skipped, saying so.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statfsSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFileError, localFileError } from '../../src/errors.js';
import { createOrganisation, createProduct } from '../../src/sandbox/admin.js';
import { dbPathFor, SandboxDb } from '../../src/sandbox/db.js';
import { type CliSandbox, cliSandbox, isolatedCliEnv, runCli } from '../helpers/run-cli.js';
import { snapshot } from '../helpers/sandbox.js';

/** A tmpfs of `size` (`256k`, `8m`), mounted on a new temporary dir. Undefined where mounting is not allowed. */
function smallDisk(size: string): string | undefined {
  if (process.platform !== 'linux') return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'loanctl-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  return dir;
}

function unmount(dir: string): void {
  execFileSync('umount', [dir]);
  rmSync(dir, { recursive: true, force: true });
}

/** Fills the disk of `dir` with a file until at most `leave` bytes are free (ENOSPC ends it sooner). */
function fill(dir: string, leave = 0): void {
  const fd = openSync(join(dir, 'filler'), 'w');
  try {
    for (let free = statfsSync(dir); free.bavail * free.bsize > leave; free = statfsSync(dir)) {
      writeSync(fd, Buffer.alloc(4096, 1));
    }
  } catch {
    // ENOSPC: full.
  } finally {
    closeSync(fd);
  }
}

/** A tmpfs of 256 KiB, filled: every write to it fails with ENOSPC. Undefined where mounting is not allowed. */
function fullDisk(): string | undefined {
  const dir = smallDisk('256k');
  if (dir === undefined) return undefined;
  mkdirSync(join(dir, 'config'), { mode: 0o700 });
  mkdirSync(join(dir, 'state'), { mode: 0o700 });
  fill(dir);
  return dir;
}

const disk = fullDisk();
let sandbox: CliSandbox | undefined;

beforeAll(async () => {
  if (disk) sandbox = await cliSandbox();
});
afterAll(async () => {
  await sandbox?.close();
  if (disk) unmount(disk);
});

describe.runIf(process.platform === 'linux')('a system error about a file', () => {
  it('is one line naming the file, what happened and what to do (a real ENOSPC, from /dev/full)', () => {
    const fd = openSync('/dev/full', 'w');
    let failure: unknown;
    try {
      writeSync(fd, 'x');
    } catch (error) {
      failure = error;
    } finally {
      closeSync(fd);
    }
    const error = localFileError(failure, '/home/ada/.config/loanctl/config.json', 'the config file');
    expect(error).toBeInstanceOf(LocalFileError);
    expect((error as LocalFileError).message).toBe(
      'Could not write the config file /home/ada/.config/loanctl/config.json: no space is left on its disk (ENOSPC).',
    );
    expect((error as LocalFileError).hint).toBe('Free some space there, then run again.');
  });
});

describe.skipIf(!disk)(`on a full disk${disk ? '' : ' — skipped: no right to mount a small tmpfs here'}`, () => {
  it('profile add says which file could not be written, and that the disk is full (exit 1)', async () => {
    const env = isolatedCliEnv({ LOANCTL_CONFIG_DIR: join(disk as string, 'config') });
    const add = ['profile', 'add', 'prod', '--base-url', 'https://api.example.com', '--api-key-stdin'];
    const result = await runCli([...add, '--insecure-storage'], { env, stdin: 'sk_live_x' });
    expect(result.exitCode).toBe(1);
    const config = join(disk as string, 'config', 'config.json');
    // The lock beside the config file is the first thing written.
    expect(result.stderr).toBe(
      `loanctl: Could not write the lock file ${config}.lock: no space is left on its disk (ENOSPC). Free some space there, then run again.\n`,
    );
  });

  it('a bulk run whose journal cannot be written says so in one line naming it, and goes on without one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loanctl-full-bulk-'));
    const path = join(dir, 'users.ndjson');
    const row = (n: number) =>
      JSON.stringify({
        firstname: 'Ada',
        lastname: 'Obi',
        email: `full${n}@disk.example`,
        password: 'pw-12345678',
        phone: '08012345678',
        gender: 'female',
      });
    writeFileSync(path, `${[1, 2, 3].map(row).join('\n')}\n`);
    const result = await (sandbox as CliSandbox).run(['user', 'create', '--from', path, '--concurrency', '1'], {
      env: { LOANCTL_STATE_DIR: join(disk as string, 'state') },
    });
    rmSync(dir, { recursive: true, force: true });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/unexpected error/i);
    expect(result.stderr).toContain(
      `loanctl: warning: no journal for this run: Could not write the lock of the bulk journal ${join(disk as string, 'state', 'bulk')}/`,
    );
    expect(result.stderr).toMatch(
      /no space is left on its disk \(ENOSPC\)\. Running the file again will send every row again\.\n/,
    );
  });
});

describe.skipIf(!disk)(
  `a restore on a disk that fills up half-way through its copy${disk ? '' : ' — skipped: no right to mount a small tmpfs here'}`,
  () => {
    it('is one line naming the data dir and saying nothing was changed (exit 1); the data is as it was', async () => {
      const mounted = smallDisk('8m') as string;
      try {
        const dataDir = join(mounted, 'sandbox');
        const sandbox = (...args: string[]) => runCli(['sandbox', ...args, '--data-dir', dataDir]);
        const { org_id } = createOrganisation(dataDir, 'Full Lender');
        createProduct(dataDir, org_id, 'Full Loan');
        // A snapshot of a few MB of borrowers, then the live data emptied and the disk filled but for
        // a little: too little for the copy's writes.
        const db = SandboxDb.open(dbPathFor(dataDir));
        db.sqlite.exec(
          `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 8000)
         INSERT INTO users (org_id, firstname, lastname, email, phone, gender, reference, source,
                            is_active, created_at, updated_at, org_seq)
         SELECT ${org_id}, 'Ada', 'Grown', 'grown' || i || '@example.com', '+2348000000000', 'female',
                'grown-' || i, 'api', 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', i FROM n`,
        );
        db.close();
        expect((await sandbox('snapshot', 'big')).exitCode).toBe(0);
        expect((await sandbox('reset', '--yes')).exitCode).toBe(0);
        fill(mounted, 256 * 1024);
        const before = snapshot(dbPathFor(dataDir));
        const result = await sandbox('restore', 'big', '--yes');
        expect(result.exitCode, result.stderr).toBe(1);
        expect(result.stderr).toBe(
          `loanctl: Could not restore snapshot "big" into the sandbox in ${dataDir}: no space is left on its disk (ENOSPC). Nothing was changed. Free some space there, then run again.\n`,
        );
        expect(snapshot(dbPathFor(dataDir))).toEqual(before);
      } finally {
        unmount(mounted);
      }
    });
  },
);

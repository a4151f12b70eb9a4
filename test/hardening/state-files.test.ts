/**
 * The state files loanctl reads back — the config file, the borrower index, the bulk journal —
 * are checked before they are believed: one it cannot
 * trust stops the command with one line and is left as it was, never a silent skip, a rewrite
 * without what it could not read, a duplicate, or a read that blocks on a FIFO.
 * The real program in-process (../helpers/run-cli.ts), against the in-process sandbox where a
 * server is needed.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { lockText } from '../../src/bulk/journal-lock.js';
import { indexPaths } from '../../src/config/user-index.js';
import { borrower } from '../helpers/cli.js';
import { type CliSandbox, cliSandbox, isolatedCliEnv, runCli } from '../helpers/run-cli.js';

const dirs: string[] = [];
let sandbox: CliSandbox | undefined;
/** The in-process sandbox, opened by the first test that needs a server. */
async function server(): Promise<CliSandbox> {
  sandbox ??= await cliSandbox();
  return sandbox;
}
afterAll(async () => {
  await sandbox?.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loanctl-state-'));
  dirs.push(dir);
  return dir;
}

function mkfifo(path: string): void {
  execFileSync('mkfifo', [path]);
}

/** A config dir holding `config` as its config.json. */
function configWith(config: unknown): { env: ReturnType<typeof isolatedCliEnv>; file: string; text: string } {
  const dir = join(tempDir(), 'config');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, 'config.json');
  const text = `${JSON.stringify(config, null, 2)}\n`;
  writeFileSync(file, text, { mode: 0o600 });
  return { env: isolatedCliEnv({ LOANCTL_CONFIG_DIR: dir }), file, text };
}

const addStaging = ['profile', 'add', 'staging', '--base-url', 'https://staging.example.com', '--api-key-stdin'];
const addOptions = { stdin: 'sk_live_STAGING_0001' };

describe('the config file', () => {
  it('a profile with one field of the wrong type is named, with the fix, and the file is never rewritten without it', async () => {
    const { env, file, text } = configWith({
      current: 'prod',
      profiles: { prod: { baseUrl: 'https://api.example.com', apiKey: 'sk_live_PROD_KEY_0001', productId: '3' } },
    });
    const added = await runCli([...addStaging, '--insecure-storage'], { env, ...addOptions });
    expect(added.exitCode).toBe(2);
    expect(added.stderr).toContain(
      `In the config file ${file}, profile "prod" has "productId": "3", which must be a whole number (e.g. "productId": 3).`,
    );
    expect(added.stderr.trim().split('\n')).toHaveLength(1);
    // Before: exit 0, and config.json rewritten without "prod" and its key.
    expect(readFileSync(file, 'utf8')).toBe(text);

    const listed = await runCli(['profile', 'list'], { env });
    expect(listed.exitCode).toBe(2);
    expect(listed.stderr).toContain('"productId": "3"');
  });

  it('a numeric baseUrl, or a key of the wrong type, is named; the key itself never printed', async () => {
    const numeric = configWith({ profiles: { prod: { baseUrl: 8080, apiKey: 'sk_live_PROD_KEY_0001' } } });
    const first = await runCli(['profile', 'list'], { env: numeric.env });
    expect(first.exitCode).toBe(2);
    expect(first.stderr).toContain('profile "prod" has "baseUrl": 8080, which must be text');

    const badKey = configWith({ profiles: { prod: { baseUrl: 'https://api.example.com', apiKey: 123456789 } } });
    const second = await runCli(['profile', 'list'], { env: badKey.env });
    expect(second.exitCode).toBe(2);
    expect(second.stderr).toContain('"apiKey": a number, which must be text');
    expect(second.stderr).not.toContain('123456789');
    expect(readFileSync(badKey.file, 'utf8')).toBe(badKey.text);
  });

  it('fields loanctl does not know are kept when it writes the file', async () => {
    const { env, file } = configWith({
      profiles: { prod: { baseUrl: 'https://api.example.com', apiKey: 'sk_live_PROD_KEY_0001', note: 'ops' } },
      editor: 'vim',
    });
    const added = await runCli([...addStaging, '--insecure-storage'], { env, ...addOptions });
    expect(added.exitCode).toBe(0);
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written.profiles.prod.note).toBe('ops');
    expect(written.editor).toBe('vim');
    expect(Object.keys(written.profiles).sort()).toEqual(['prod', 'staging']);
  });

  it('a FIFO or a directory as config.json is refused at once, naming what it is', async () => {
    const dir = join(tempDir(), 'config');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    mkfifo(join(dir, 'config.json'));
    const env = isolatedCliEnv({ LOANCTL_CONFIG_DIR: dir });
    // Before: the read blocked until a writer came (forever).
    const fifo = await runCli(['profile', 'list'], { env });
    expect(fifo.exitCode).toBe(2);
    expect(fifo.stderr).toContain(`The config file ${join(dir, 'config.json')} is a FIFO, not a file`);

    const other = join(tempDir(), 'config');
    mkdirSync(join(other, 'config.json'), { recursive: true });
    const directory = await runCli(['profile', 'list'], { env: isolatedCliEnv({ LOANCTL_CONFIG_DIR: other }) });
    expect(directory.exitCode).toBe(2);
    expect(directory.stderr).toContain('is a directory, not a file');
  });
});

describe('the borrower index', () => {
  it('a FIFO where the index file should be is refused at once, naming it', async () => {
    const api = await server();
    const created = await api.run(['user', 'create', ...borrower('fifo@example.com'), '--password-stdin'], {
      stdin: 'pw-12345678',
    });
    expect(created.exitCode).toBe(0);
    const path = indexPaths(api.env, undefined, api.url).index;
    mkdirSync(join(path, '..'), { recursive: true });
    mkfifo(path);
    // Before: the look-up blocked reading the FIFO.
    const shown = await api.run(['user', 'show', 'fifo@example.com']);
    expect(shown.exitCode).toBe(2);
    expect(shown.stderr).toContain(`The borrower index ${path} is a FIFO, not a file`);
    rmSync(path);
  });
});

interface Row {
  row: number;
  status: string;
  id?: number;
  message: string;
}

function rowsOf(stdout: string): Row[] {
  return stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row);
}

/** A bulk input file, its journal directory, and a run of `kind create --from` with them. */
async function bulkFile(name: string, text: string) {
  const api = await server();
  const dir = tempDir();
  const path = join(dir, name);
  writeFileSync(path, text);
  const state = join(dir, 'state');
  const env = { LOANCTL_STATE_DIR: state };
  return {
    api,
    path,
    journals: () => readdirSync(join(state, 'bulk')).map((file) => join(state, 'bulk', file)),
    run: (kind: 'user' | 'loan', extra: string[] = []) => api.run([kind, 'create', '--from', path, ...extra], { env }),
  };
}

function usersCsv(prefix: string, count: number): string {
  const lines = ['firstname,lastname,email,password,phone,gender'];
  for (let i = 1; i <= count; i++)
    lines.push(`Ada,Obi,${prefix}${i}@journal.example,pw-12345678,0801234567${i % 10},female`);
  return `${lines.join('\n')}\n`;
}

function loansCsv(email: string, purposes: string[]): string {
  return `user,amount,purpose\n${purposes.map((purpose) => `${email},5000,${purpose}`).join('\n')}\n`;
}

/** How many users, and loan requests, the sandbox's database holds. */
function counts(api: CliSandbox): { users: number; loans: number } {
  const db = new DatabaseSync(api.dbPath);
  try {
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { users: count('users'), loans: count('loan_requests') };
  } finally {
    db.close();
  }
}

describe('the bulk journal', () => {
  // Two runs of one file at once each read the journal before the other's S lines, and could both
  // send a row: the second now stops while the first runs; a lock left by a dead run is taken over.
  it("a second run of the same file while one runs stops before sending; a dead run's lock is taken over", async () => {
    const bulk = await bulkFile('twice.csv', usersCsv('twice', 3));
    expect((await bulk.run('user')).exitCode).toBe(0);
    const [journal] = bulk.journals();
    const lock = `${journal}.lock`;
    expect(existsSync(lock)).toBe(false);
    const before = counts(bulk.api).users;

    // Another run, as another process: a process that is alive holds the lock.
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      writeFileSync(lock, lockText(other.pid as number));
      expect(readFileSync(lock, 'utf8')).toMatch(new RegExp(`^${other.pid} \\S+\\n$`));
      const busy = await bulk.run('user');
      expect(busy.exitCode).toBe(2);
      expect(busy.stderr).toContain(`Another loanctl (pid ${other.pid}) is running this file now`);
      expect(busy.stdout).toBe('');
      expect(readFileSync(lock, 'utf8')).toBe(lockText(other.pid as number));
    } finally {
      other.kill();
      await new Promise((resolve) => other.once('exit', resolve));
    }

    // That process is gone (as after kill -9): its lock is stale, and the run goes on.
    const again = await bulk.run('user');
    expect(again.exitCode, again.stderr).toBe(0);
    expect(existsSync(lock)).toBe(false);
    expect(counts(bulk.api).users).toBe(before);
  });

  it('a lock whose pid now belongs to another process (started at another time) is stale: the run goes on', async () => {
    const bulk = await bulkFile('reused-pid.csv', usersCsv('reusedpid', 2));
    expect((await bulk.run('user')).exitCode).toBe(0);
    const [journal] = bulk.journals();
    const lock = `${journal}.lock`;
    // The run that wrote the lock died; the system gave its pid to this unrelated process since.
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const [pid, started] = lockText(other.pid as number)
        .trim()
        .split(' ');
      expect(started).not.toBe('-');
      writeFileSync(lock, `${pid} ${Number(started) - 1 || 'another-time'}\n`);
      const again = await bulk.run('user');
      expect(again.exitCode, again.stderr).toBe(0);
      expect(again.stderr).not.toContain('Another loanctl');
      expect(existsSync(lock)).toBe(false);
    } finally {
      other.kill();
    }
  });

  it('a lock file replaced by a link to another file naming a live pid is not followed: the run goes on', async () => {
    const bulk = await bulkFile('linked-lock.csv', usersCsv('linkedlock', 2));
    expect((await bulk.run('user')).exitCode).toBe(0);
    const [journal] = bulk.journals();
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const elsewhere = join(tempDir(), 'pid');
      writeFileSync(elsewhere, `${other.pid}\n`);
      symlinkSync(elsewhere, `${journal}.lock`);
      const again = await bulk.run('user');
      expect(again.exitCode, again.stderr).toBe(0);
      expect(readFileSync(elsewhere, 'utf8')).toBe(`${other.pid}\n`);
    } finally {
      other.kill();
    }
  });

  it('a journal replaced by a symbolic link is refused, and the file it points at is left untouched', async () => {
    const bulk = await bulkFile('link.csv', usersCsv('link', 2));
    expect((await bulk.run('user')).exitCode).toBe(0);
    const [journal] = bulk.journals();
    const victim = join(tempDir(), 'passwd');
    writeFileSync(victim, 'root:x:0:0\n');
    rmSync(journal as string);
    symlinkSync(victim, journal as string);
    const again = await bulk.run('user');
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain(`The bulk journal ${journal} cannot be trusted: it is a symbolic link.`);
    // Before: the run appended its lines to whatever the link pointed at.
    expect(readFileSync(victim, 'utf8')).toBe('root:x:0:0\n');
    expect(again.stdout).toBe('');
  });

  it("another file's journal copied over it, a truncated one, or a garbage line: the run stops in one line, nothing sent", async () => {
    const api = await server();
    await api.run(['user', 'create', ...borrower('owner@journal.example'), '--password-stdin'], {
      stdin: 'pw-12345678',
    });
    const first = await bulkFile('first.csv', loansCsv('owner@journal.example', ['One', 'Two', 'Three']));
    const other = await bulkFile('other.csv', loansCsv('owner@journal.example', ['Four', 'Five', 'Six']));
    expect((await first.run('loan')).exitCode).toBe(0);
    expect((await other.run('loan')).exitCode).toBe(0);
    const [journal] = first.journals();
    const [otherJournal] = other.journals();
    const original = readFileSync(journal as string);
    const cases: [string, Buffer | string][] = [
      ['it belongs to another file or server', readFileSync(otherJournal as string)],
      ['it is shorter than was written', original.subarray(0, original.length - 20)],
      ['is not a journal line', Buffer.concat([original, Buffer.from('garbage\n')])],
    ];
    for (const [reason, content] of cases) {
      // The journal lives beside the other file's: copy it over, as a person or a backup tool would.
      writeFileSync(journal as string, content);
      const before = counts(api);
      const again = await first.run('loan');
      expect(again.exitCode, reason).toBe(2);
      expect(again.stderr).toContain(`The bulk journal ${journal} cannot be trusted: `);
      expect(again.stderr).toContain(reason);
      expect(again.stderr).toContain('--ignore-journal');
      // Before: rows "existed" with exit 0, or were made a second time, without a word.
      expect(counts(api)).toEqual(before);
    }
    writeFileSync(journal as string, original);
  });

  it('a directory or a FIFO where the journal should be is refused at once; --ignore-journal sets it aside', async () => {
    const bulk = await bulkFile('special.csv', usersCsv('special', 1));
    expect((await bulk.run('user')).exitCode).toBe(0);
    const [journal] = bulk.journals();
    rmSync(journal as string);
    mkdirSync(journal as string);
    const directory = await bulk.run('user');
    expect(directory.exitCode).toBe(2);
    expect(directory.stderr).toContain('cannot be trusted: it is a directory');
    rmSync(journal as string, { recursive: true });
    mkfifo(journal as string);
    // Before: the run hung opening the FIFO.
    const fifo = await bulk.run('user');
    expect(fifo.exitCode).toBe(2);
    expect(fifo.stderr).toContain('cannot be trusted: it is a FIFO');

    const ignored = await bulk.run('user', ['--ignore-journal']);
    expect(ignored.exitCode, ignored.stderr).toBe(0);
    expect(ignored.stderr).toMatch(/it is a FIFO\. Set aside as .*\.set-aside-\d+; every row is new\./);
    expect(rowsOf(ignored.stdout).map((row) => row.status)).toEqual(['exists']);
  });

  it('a re-run creates what the server lost since, and skips only what it still has', async () => {
    const api = await server();
    const users = await bulkFile('lost-users.csv', usersCsv('lost', 3));
    expect((await users.run('user')).exitCode).toBe(0);
    // What a reset, a restore or another data dir behind the same URL does to these borrowers.
    const db = new DatabaseSync(api.dbPath);
    db.prepare("DELETE FROM users WHERE email = 'lost2@journal.example'").run();
    db.close();
    const usersAgain = await users.run('user');
    expect(usersAgain.exitCode, usersAgain.stderr).toBe(0);
    // Before: "3 rows: 0 created, 3 existed", and lost2 did not exist.
    expect(rowsOf(usersAgain.stdout).map((row) => row.status)).toEqual(['exists', 'success', 'exists']);
    expect(rowsOf(usersAgain.stdout)[1]?.message).toContain('the server no longer had it');
    expect(usersAgain.stderr).toContain('1 created, 2 existed');

    await api.run(['user', 'create', ...borrower('keeper@journal.example'), '--password-stdin'], {
      stdin: 'pw-12345678',
    });
    const loans = await bulkFile('lost-loans.csv', loansCsv('keeper@journal.example', ['Kept', 'Deleted']));
    const first = await loans.run('loan');
    expect(first.exitCode, first.stderr).toBe(0);
    const [, deleted] = rowsOf(first.stdout);
    expect((await api.run(['loan', 'delete', String(deleted?.id), '--yes'])).exitCode).toBe(0);
    const before = counts(api).loans;
    const loansAgain = await loans.run('loan');
    expect(loansAgain.exitCode, loansAgain.stderr).toBe(0);
    const again = rowsOf(loansAgain.stdout);
    expect(again.map((row) => row.status)).toEqual(['exists', 'success']);
    expect(again[0]?.message).toContain('the server still has it');
    expect(counts(api).loans).toBe(before + 1);
    // And a third run makes nothing: each row's loan request is there, once.
    const third = await loans.run('loan');
    expect(rowsOf(third.stdout).map((row) => row.status)).toEqual(['exists', 'exists']);
    expect(counts(api).loans).toBe(before + 1);
  });
});

/**
 * `loanctl status`, in-process against the sandbox: the approval queue, loan requests long in a
 * stage (by the server's clock), bulk files with rows left (from the journals in the state dir),
 * a journal it cannot trust, and the sandbox serving the data dir. Exit 0 throughout.
 */
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusReport } from '../../src/commands/status/status.js';
import type { LoanRequest } from '../../src/contract/schemas.js';
import { claimRunFile } from '../../src/sandbox/control/run-file.js';
import { borrower } from '../helpers/cli.js';
import { type CliSandbox, cliSandbox, type RunCliOptions } from '../helpers/run-cli.js';

let sandbox: CliSandbox;
let work: string;
let env: Record<string, string>;
const ada = 'ada.status@example.com';
const loans: Record<string, number> = {};

async function ok(argv: string[], options: RunCliOptions = {}) {
  const result = await sandbox.run(argv, { ...options, env: { ...env, ...options.env } });
  expect(result.exitCode, `${argv.join(' ')}\n${result.stderr}`).toBe(0);
  return result;
}

async function createLoan(name: string, day: string): Promise<void> {
  sandbox.setNow(new Date(`${day}T10:00:00Z`));
  const created = await ok(['loan', 'create', '--user', ada, '--amount', '5000', '--purpose', name]);
  loans[name] = created.json<LoanRequest>().id;
}

async function submit(name: string, day: string): Promise<void> {
  sandbox.setNow(new Date(`${day}T11:00:00Z`));
  const id = String(loans[name]);
  await ok(['loan', 'add-bank', id, '--code', '011', '--account-name', 'Ada Obi']);
  await ok(['loan', 'submit', id]);
}

beforeAll(async () => {
  sandbox = await cliSandbox();
  work = mkdtempSync(join(tmpdir(), 'loanctl-status-'));
  env = { LOANCTL_STATE_DIR: join(work, 'state'), XDG_DATA_HOME: join(work, 'data') };
  await ok(['user', 'create', ...borrower(ada), '--password-stdin'], { stdin: 'pw' });
  await createLoan('fresh', '2026-03-09');
  await createLoan('stale', '2026-03-01');
  await createLoan('queued-long', '2026-03-01');
  await createLoan('queued-short', '2026-03-01');
  await submit('queued-long', '2026-03-02');
  await submit('queued-short', '2026-03-09');
  sandbox.setNow(new Date('2026-03-10T12:00:00Z'));
});

afterAll(async () => {
  await sandbox?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('loanctl status', () => {
  it('says the queue, its oldest request, and who is in a stage longer than --older-than', async () => {
    // The laptop's clock is years off: ages are by the server's.
    const result = await ok(['status', '--older-than', '3d'], { now: () => new Date('2031-01-01T00:00:00Z') });
    const report = result.json<StatusReport>();
    expect(report.queue).toEqual({
      waiting: 2,
      oldest_id: loans['queued-long'],
      oldest_submitted_at: '2026-03-02T11:00:00.000Z',
      oldest_age: '8 d 1 h',
      problem: null,
    });
    expect(report.older_than).toBe('3d');
    expect(report.stages).toEqual([
      { stage: 'created', older: 1, oldest_id: loans.stale, oldest_age: '9 d 2 h' },
      { stage: 'waiting', older: 1, oldest_id: loans['queued-long'], oldest_age: '8 d 1 h' },
      { stage: 'approved', older: 0, oldest_id: null, oldest_age: null },
    ]);
    expect(report.bulk).toEqual([]);
    expect(report.sandbox).toMatchObject({ running: false });
  });

  it('a longer threshold leaves out who has not waited that long', async () => {
    const report = (await ok(['status', '--older-than', '9d'])).json<StatusReport>();
    expect(report.stages.map((stage) => stage.older)).toEqual([1, 0, 0]);
  });

  it('-o csv is refused: its lists have no cells', async () => {
    const result = await sandbox.run(['status', '-o', 'csv'], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('-o csv has no cells for');
  });

  it('a bad --older-than is exit 2, in the one duration syntax', async () => {
    const result = await sandbox.run(['status', '--older-than', 'soon'], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--older-than must be a duration such as');
    expect(result.stdout).toBe('');
  });

  it('a bulk file with rows left: counts, rows left and the command that resumes it', async () => {
    const file = join(work, 'people.csv');
    const rows = [
      'one.status@bulk.example,Ada,Obi,pw,08012345671,female',
      'two.status@bulk.example,Ada,Obi,pw,08012345672,female',
      // Refused before it is sent: not in the journal, so left to do.
      'bad-email,Ada,Obi,pw,08012345673,female',
    ];
    writeFileSync(file, `email,firstname,lastname,password,phone,gender\n${rows.join('\n')}\n`);
    const run = await sandbox.run(['user', 'create', '--from', file], { env });
    expect(run.exitCode, run.stderr).not.toBe(0);
    const report = (await ok(['status'])).json<StatusReport>();
    expect(report.bulk).toEqual([
      expect.objectContaining({
        kind: 'user',
        file,
        server: sandbox.url,
        acknowledged: 2,
        refused: 0,
        unknown: 0,
        rows: 3,
        left: 1,
        resume: `loanctl user create --from ${file}`,
        problem: null,
      }),
    ]);
    const table = await ok(['status', '-o', 'table']);
    expect(table.stdout).toContain(
      `${file} (users, ${sandbox.url}): 1 of 3 rows left (2 acknowledged, 0 refused, 0 unknown); resume: loanctl user create --from ${file}`,
    );

    unlinkSync(file);
    const gone = (await ok(['status'])).json<StatusReport>();
    expect(gone.bulk[0]).toMatchObject({
      rows: null,
      left: null,
      resume: null,
      problem: `${file} is gone: its rows left cannot be counted.`,
    });
  });

  it("a loan requests file resumes on its journal's product", async () => {
    const file = join(work, 'loans file.csv');
    writeFileSync(file, `user,amount,purpose\n${ada},1000,one\nnobody@bulk.example,2000,two\n`);
    const run = await sandbox.run(['loan', 'create', '--from', file], { env });
    expect(run.exitCode, run.stderr).not.toBe(0);
    const report = (await ok(['status'])).json<StatusReport>();
    expect(report.bulk.find((entry) => entry.file === file)).toMatchObject({
      kind: 'loan',
      acknowledged: 1,
      rows: 2,
      left: 1,
      resume: `loanctl loan create --from '${file}' --product ${sandbox.product_id}`,
    });
  });

  it('a journal it cannot trust is said in one line, and the rest still shows', async () => {
    const journal = join(work, 'state', 'bulk', 'user-0000-0000.journal');
    writeFileSync(journal, 'not a journal\n');
    const result = await ok(['status', '-o', 'table']);
    const lines = result.stdout.split('\n').filter((line) => line.includes(journal));
    expect(lines).toEqual([
      `  The bulk journal ${journal} cannot be trusted: it is not a loanctl bulk journal (or was written by an older loanctl). Nothing was sent.`,
    ]);
    expect(result.stdout).toMatch(/^Approval queue: 2 waiting/m);
    unlinkSync(journal);
  });

  it('the sandbox serving the data dir, with its url and pid', async () => {
    const dataDir = join(work, 'sandbox');
    mkdirSync(dataDir, { recursive: true });
    claimRunFile(dataDir, { pid: process.pid, started_at: '2026-03-10T10:00:00Z', url: sandbox.url });
    const result = await ok(['status', '--data-dir', dataDir, '-o', 'json']);
    expect(result.json<StatusReport>().sandbox).toMatchObject({ running: true, url: sandbox.url, pid: process.pid });
    const table = await ok(['status', '--data-dir', dataDir, '-o', 'table']);
    expect(table.stdout).toContain(`Sandbox: running on ${sandbox.url} (pid ${process.pid}`);
  });

  it('without an API key the queue says why in one line; the exit is still 0', async () => {
    const result = await ok(['status', '-o', 'table'], { env: { LOANCTL_API_KEY: undefined } as never });
    expect(result.stdout).toMatch(/^Approval queue: cannot be read: .+$/m);
    expect(result.stdout).toContain('Bulk files');
    expect(result.stdout).toContain('Sandbox:');
  });
});

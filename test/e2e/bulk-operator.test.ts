/**
 * Fixing mistakes in a bulk run, in-process against the sandbox: `--failed` gives back the rejected
 * rows as they were written, ready to fix and run again; headers are matched leniently, a column
 * that is no field is ignored with a warning (refused with --strict), and a needed field with no
 * column stops the run before anything is sent; running a file again skips exactly the rows
 * acknowledged before (the journal, in LOANCTL_STATE_DIR here), and two identical rows are two
 * loan requests.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';

let sandbox: CliSandbox;
const dir = mkdtempSync(join(tmpdir(), 'loanctl-bulk-operator-'));
const stateDir = join(dir, 'state');
const env = { LOANCTL_STATE_DIR: stateDir };

interface Result {
  row: number;
  status: string;
  id?: number;
  email?: string;
  message: string;
}

const results = (stdout: string): Result[] =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Result);

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const run = (argv: string[]) => sandbox.run(argv, { env });

beforeAll(async () => {
  sandbox = await cliSandbox();
});

afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('--failed FILE', () => {
  it('CSV: the rejected rows under the file’s own header, as written; fixed, they run', async () => {
    const header = 'First Name,Last Name,E-Mail,Password,Phone,Gender';
    const bad1 = 'Bad,Mail,not-an-email,pw,08012345678,female';
    const bad2 = '"Obi, Jr",NoPhone,f2@bulk.example,"pw ""x""",,male';
    const path = file(
      'users.csv',
      [header, 'Ada,Obi,f1@bulk.example,pw,08012345678,female', bad1, bad2, ''].join('\n'),
    );
    const failed = join(dir, 'failed.csv');
    const first = await run(['user', 'create', '--from', path, '--failed', failed]);
    expect(first.exitCode).toBe(1);
    expect(results(first.stdout).map((row) => row.status)).toEqual(['success', 'error', 'error']);
    // A row refused before sending still names its borrower.
    expect(results(first.stdout)[2]).toMatchObject({ email: 'f2@bulk.example', message: 'Missing phone. Not sent.' });
    expect(readFileSync(failed, 'utf8')).toBe(`${header}\n${bad1}\n${bad2}\n`);

    const fixed = file(
      'fixed.csv',
      readFileSync(failed, 'utf8').replace('not-an-email', 'f3@bulk.example').replace(',,male', ',08011111111,male'),
    );
    const again = await run(['user', 'create', '--from', fixed, '--failed', failed]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(results(again.stdout).map((row) => row.status)).toEqual(['success', 'success']);
    expect(readFileSync(failed, 'utf8')).toBe(`${header}\n`);
  });

  it('keeps the input’s form: an Excel "CSV UTF-8" file (BOM, CRLF) gets its failed rows back the same way', async () => {
    const header = 'First Name,Last Name,Email,Password,Phone,Gender';
    const bad = 'Àjàyí,Ọbá,not-an-email,pw,08012345678,female';
    const path = file('excel.csv', `\uFEFF${header}\r\nTolú,Ade,x1@bulk.example,pw,08012345678,female\r\n${bad}\r\n`);
    const failed = join(dir, 'excel-failed.csv');
    const result = await run(['user', 'create', '--from', path, '--failed', failed]);
    expect(result.exitCode).toBe(1);
    expect(readFileSync(failed, 'utf8')).toBe(`\uFEFF${header}\r\n${bad}\r\n`);
  });

  it('NDJSON: the rejected lines as written', async () => {
    const good = JSON.stringify({ user: 'f1@bulk.example', amount: 100, purpose: 'Stock' });
    const bad = JSON.stringify({ user: 'f1@bulk.example', amount: 12.345, purpose: 'Stock' });
    const path = file('loans.ndjson', `${good}\nnot json\n${bad}\n`);
    const failed = join(dir, 'failed.ndjson');
    const result = await run(['loan', 'create', '--from', path, '--failed', failed]);
    expect(result.exitCode).toBe(1);
    expect(readFileSync(failed, 'utf8')).toBe(`not json\n${bad}\n`);
    // A created loan request's line names its borrower as the file did, like an `exists` line.
    expect(results(result.stdout)[0]).toMatchObject({ status: 'success', email: 'f1@bulk.example' });
  });

  it('needs --from', async () => {
    const result = await run(['loan', 'create', '--failed', join(dir, 'x.csv')]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--failed, --ignore-journal and --strict go with --from');
  });

  // They were silently ignored: a single-row create ran as if they had not been given.
  it.each([
    ['user', '--strict'],
    ['loan', '--ignore-journal'],
  ])('%s create %s without --from is refused before anything is sent', async (noun, flag) => {
    const result = await run([noun, 'create', flag, '--data', '{}']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('go with --from FILE');
  });
});

describe('CSV headers', () => {
  it('a column that is no field is ignored, with one warning naming them all; --failed keeps its cells', async () => {
    const header = 'First Name,Notes,Last Name,Email,Password,Phone,Gender,Colour';
    const bad = 'Bad,call after 5,Mail,not-an-email,pw,08012345678,female,red';
    const path = file('notes.csv', `${header}\nAda,VIP,Obi,notes@bulk.example,pw,08012345678,female,blue\n${bad}\n`);
    const failed = join(dir, 'notes-failed.csv');
    const result = await run(['user', 'create', '--from', path, '--failed', failed]);
    expect(result.exitCode).toBe(1);
    expect(results(result.stdout).map((row) => row.status)).toEqual(['success', 'error']);
    const warnings = result.stderr.split('\n').filter((line) => line.includes('warning'));
    expect(warnings).toEqual([
      `loanctl: warning: ${path}: ignoring unknown columns "Notes", "Colour": a user has no such field (--strict refuses them).`,
    ]);
    expect(readFileSync(failed, 'utf8')).toBe(`${header}\n${bad}\n`);
  });

  it('--strict refuses columns that are no field: exit 2, one line naming them all, nothing sent', async () => {
    const users = file(
      'strict.csv',
      'First Name,Notes,Last Name,Email,Password,Phone,Gender,Colour\nAda,VIP,Obi,strict@bulk.example,pw,08012345678,female,blue\n',
    );
    const refused = await run(['user', 'create', '--from', users, '--strict']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(`${users}: unknown columns "Notes", "Colour". The columns a row can have:`);
    const exists = await run(['user', 'exists', '--email', 'strict@bulk.example', '-o', 'json']);
    expect(exists.stdout.trim()).toBe('false');

    const loans = file('strict-loans.csv', 'user,amount,purpose,Comment\nf1@bulk.example,900,Strict,later\n');
    const loanRefused = await run(['loan', 'create', '--from', loans, '--strict']);
    expect(loanRefused.exitCode).toBe(2);
    expect(loanRefused.stdout).toBe('');
    expect(loanRefused.stderr).toContain('unknown column "Comment"');
  });

  it('--strict on NDJSON: a line with a key that is no field is that row’s error, not sent', async () => {
    const good = JSON.stringify({ user: 'f1@bulk.example', amount: 300, purpose: 'Strict' });
    const extra = JSON.stringify({ user: 'f1@bulk.example', amount: 301, purpose: 'Strict', note: 'x' });
    const path = file('strict.ndjson', `${good}\n${extra}\n`);
    const result = await run(['loan', 'create', '--from', path, '--strict']);
    expect(result.exitCode).toBe(1);
    expect(results(result.stdout).map((row) => [row.status, row.message])).toEqual([
      ['success', expect.any(String)],
      ['error', 'unknown key "note": a loan request has no such field (--strict). Not sent.'],
    ]);
  });

  it('a needed field no column gives stops the run before anything is sent, naming the closest column', async () => {
    const path = file(
      'typo.csv',
      'Frist Name,lastname,email,password,phone,gender\nAda,Obi,typo@bulk.example,pw,08012345678,female\n',
    );
    const result = await run(['user', 'create', '--from', path, '--debug']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      'no column gives firstname; unknown column "Frist Name" (did you mean "firstname"?). The columns a row can have:',
    );
    expect(result.stderr).not.toContain('debug: >');
    expect(result.stdout).toBe('');
  });

  it('names every header problem in one message: each field missing, two columns giving one field, the unknown ones', async () => {
    const path = file(
      'many.csv',
      'Frist Name,Colour,lastname,email,password,Phone,Mobile\nAda,red,Obi,m@bulk.example,pw,080,081\n',
    );
    const result = await run(['user', 'create', '--from', path]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      'no column gives firstname, gender; columns "Phone" and "Mobile" all give phone; unknown columns "Frist Name" (did you mean "firstname"?), "Colour".',
    );
    expect(result.stdout).toBe('');
  });

  it('a loan file needs its borrower by either name: user or user_id', async () => {
    const path = file('noborrower.csv', 'amount,purpose\n900,Who\n');
    const result = await run(['loan', 'create', '--from', path]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('no column gives user or user_id.');
    expect(result.stdout).toBe('');
  });

  it("a loans file's E-mail column is suggested as its borrower, user", async () => {
    const path = file('email-borrower.csv', 'E-mail,amount,purpose\nada@bulk.example,900,Stock\n');
    const result = await run(['loan', 'create', '--from', path]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('no column gives user or user_id; unknown column "E-mail" (did you mean "user"?)');
    expect(result.stdout).toBe('');
  });

  it('understands the names spreadsheets give columns: Given Name, Surname, Email Address, Mobile Number, Sex', async () => {
    const path = file(
      'spreadsheet.csv',
      'Given Name,Surname,Email Address,Password,Mobile Number,Sex\nAda,Obi,sheet@bulk.example,pw,08012345678,female\n',
    );
    const result = await run(['user', 'create', '--from', path]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(results(result.stdout)).toMatchObject([{ status: 'success', email: 'sheet@bulk.example' }]);
  });
});

describe('running a file again (the journal)', () => {
  it('two identical rows are two loan requests; a second run skips both, with their ids; clearing the journal forgets', async () => {
    const row = 'f1@bulk.example,2500,Two of these';
    const path = file('twice.csv', `user,amount,purpose\n${row}\n${row}\n`);
    const first = await run(['loan', 'create', '--from', path]);
    expect(first.exitCode, first.stderr).toBe(0);
    const made = results(first.stdout);
    expect(made.map((r) => r.status)).toEqual(['success', 'success']);
    expect(made[0]?.id).not.toBe(made[1]?.id);

    const second = await run(['loan', 'create', '--from', path]);
    expect(second.exitCode, second.stderr).toBe(0);
    const skipped = results(second.stdout);
    expect(skipped.map((r) => [r.status, r.id])).toEqual(made.map((r) => ['exists', r.id]));
    expect(skipped[0]?.message).toContain('acknowledged in an earlier run of this file');

    const journals = readdirSync(join(stateDir, 'bulk'));
    expect(journals.some((name) => name.startsWith('loan-'))).toBe(true);
    rmSync(join(stateDir, 'bulk'), { recursive: true });
    const third = await run(['loan', 'create', '--from', path]);
    expect(results(third.stdout).map((r) => r.status)).toEqual(['success', 'success']);
    expect(existsSync(join(stateDir, 'bulk'))).toBe(true);
  });

  it('a state directory that cannot be written: the run goes on without a journal, saying so', async () => {
    const path = file('nostate.csv', 'user,amount,purpose\nf1@bulk.example,700,No journal\n');
    const result = await sandbox.run(['loan', 'create', '--from', path], {
      env: { LOANCTL_STATE_DIR: '/proc/loanctl-no-such-dir' },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain('warning: no journal for this run');
    expect(results(result.stdout).map((r) => r.status)).toEqual(['success']);
  });
});

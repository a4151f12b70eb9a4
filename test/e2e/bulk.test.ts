/**
 * `user create --from` and `loan create --from` through `runCli` (the real program, in-process)
 * against the in-process sandbox:
 * results per row, `exists` on a second run, bad rows as errors that stop nothing, exit codes,
 * the summary line, stdin, and loan rows that do not duplicate when the file runs again.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';

let sandbox: CliSandbox;
const dir = mkdtempSync(join(tmpdir(), 'loanctl-bulk-e2e-'));

beforeAll(async () => {
  sandbox = await cliSandbox();
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Result {
  row: number;
  status: 'success' | 'exists' | 'error';
  id?: number;
  reference?: string;
  email?: string;
  message: string;
}

function results(stdout: string): Result[] {
  return stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Result);
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function userLine(email: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    firstname: 'Ada',
    lastname: 'Obi',
    email,
    password: 'correct horse',
    phone: '08012345678',
    gender: 'female',
    ...extra,
  });
}

async function emails(): Promise<string[]> {
  const list = await sandbox.run(['user', 'list', '--all', '-o', 'ndjson', '--fields', 'email']);
  expect(list.exitCode).toBe(0);
  return results(list.stdout).map((row) => (row as unknown as { email: string }).email);
}

describe('user create --from', () => {
  it('creates one user a row of an NDJSON file, then says exists for each on the second run', async () => {
    const path = file(
      'users.ndjson',
      `${['nd1', 'nd2', 'nd3', 'nd4', 'nd5'].map((name) => userLine(`${name}@bulk.example`)).join('\n')}\n`,
    );
    const first = await sandbox.run(['user', 'create', '--from', path, '--concurrency', '16']);
    expect(first.exitCode, first.stderr).toBe(0);
    const rows = results(first.stdout);
    expect(rows.map((row) => row.row)).toEqual([1, 2, 3, 4, 5]);
    expect(rows.every((row) => row.status === 'success' && /^[0-9A-Za-z]{13}$/.test(row.reference ?? ''))).toBe(true);
    expect(rows[0]?.email).toBe('nd1@bulk.example');
    expect(first.stderr).toMatch(/^5 rows: 5 created, 0 existed, 0 failed in \d+(\.\d+)? s$/m);

    const second = await sandbox.run(['user', 'create', '--from', path, '--concurrency', '1']);
    expect(second.exitCode).toBe(0);
    const again = results(second.stdout);
    expect(again.map((row) => row.status)).toEqual(['exists', 'exists', 'exists', 'exists', 'exists']);
    expect(again.map((row) => row.reference)).toEqual(rows.map((row) => row.reference));
    expect(second.stderr).toMatch(/5 rows: 0 created, 5 existed, 0 failed/);
  });

  it('reads CSV with a header; bad rows are errors, the others are created, and the exit is 1', async () => {
    const path = file(
      'users.csv',
      [
        'First Name,Last_Name,EMAIL,password,phone,gender',
        'Ada,Obi,csv1@bulk.example,pw one,0801 234 5678,female',
        '"Eze, Jr",Chi,csv2@bulk.example,pw,+2348012345679,male',
        'Bad,Email,not-an-email,pw,08012345678,female',
        'No,Phone,csv4@bulk.example,pw,,female',
        'Short,Row',
        'Last,One,csv6@bulk.example,pw,2348012345670,female',
      ].join('\n'),
    );
    const result = await sandbox.run(['user', 'create', '--from', path]);
    expect(result.exitCode).toBe(1);
    const rows = results(result.stdout);
    expect(rows.map((row) => [row.row, row.status])).toEqual([
      [1, 'success'],
      [2, 'success'],
      [3, 'error'],
      [4, 'error'],
      [5, 'error'],
      [6, 'success'],
    ]);
    expect(rows[2]?.message).toBe('email must be an e-mail address (got "not-an-email"). Not sent.');
    expect(rows[3]?.message).toBe('Missing phone. Not sent.');
    expect(rows[4]?.message).toMatch(/^Row 5 has 2 cells, but the header names 6/);
    expect(result.stderr).toMatch(/6 rows: 3 created, 0 existed, 3 failed in/);
    expect(result.stderr).toMatch(/loanctl: 3 of 6 rows failed/);
    // Normalised like the single-row command: the phone is sent as +234…, the name as given.
    const list = await sandbox.run(['user', 'list', '--all', '-o', 'ndjson']);
    const ada = results(list.stdout).find((row) => row.email === 'csv1@bulk.example') as unknown as {
      phone: string;
    };
    expect(ada.phone).toBe('+2348012345678');
    expect(await emails()).toContain('csv2@bulk.example');
  });

  it('reads rows from stdin with --from -, NDJSON or CSV told apart by the content', async () => {
    const ndjson = await sandbox.run(['user', 'create', '--from', '-'], {
      stdin: `${userLine('stdin1@bulk.example')}\n${userLine('stdin2@bulk.example')}\n`,
    });
    expect(ndjson.exitCode, ndjson.stderr).toBe(0);
    expect(results(ndjson.stdout).map((row) => row.status)).toEqual(['success', 'success']);
    const csv = await sandbox.run(['user', 'create', '--from', '-', '-o', 'csv'], {
      stdin: 'email,firstname,lastname,password,phone,gender\nstdin1@bulk.example,Ada,Obi,pw,08012345678,female\n',
    });
    expect(csv.exitCode).toBe(0);
    expect(csv.stdout.split('\n')[0]).toBe('row,status,id,reference,email,user_id,message');
    expect(csv.stdout.split('\n')[1]).toMatch(/^1,exists,,[0-9A-Za-z]{13},stdin1@bulk\.example,,/);
  });

  it('refuses single-row flags with --from, and a bad --concurrency, before sending anything', async () => {
    const path = file('one.ndjson', `${userLine('never@bulk.example')}\n`);
    const mixed = await sandbox.run(['user', 'create', '--from', path, '--email', 'x@y.io']);
    expect(mixed.exitCode).toBe(2);
    expect(mixed.stderr).toMatch(/--from reads every field from the file; leave out --email/);
    const bad = await sandbox.run(['user', 'create', '--from', path, '--concurrency', '100']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/--concurrency must be from 1 to 64/);
    const missing = await sandbox.run(['user', 'create', '--from', join(dir, 'missing.csv')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/cannot read .*missing\.csv: no such file/);
    expect(await emails()).not.toContain('never@bulk.example');
  });

  it('stops at a rejected API key (exit 3): every row would fail the same way', async () => {
    const path = file('key.ndjson', `${userLine('key1@bulk.example')}\n${userLine('key2@bulk.example')}\n`);
    const result = await sandbox.run(['user', 'create', '--from', path, '--concurrency', '1'], {
      env: { LOANCTL_API_KEY: 'sk_sandbox_wrong' },
    });
    expect(result.exitCode).toBe(3);
    expect(results(result.stdout)[0]).toMatchObject({ row: 1, status: 'error' });
    expect(result.stderr).toMatch(/Stopped after 1 row: The API rejected the API key/);
    expect(result.stdout + result.stderr).not.toContain('sk_sandbox_wrong');
  });
});

describe('loan create --from', () => {
  it('creates loan requests by user e-mail and id; running the file again creates no duplicates', async () => {
    const seed = file('borrowers.ndjson', `${userLine('lb1@bulk.example')}\n${userLine('lb2@bulk.example')}\n`);
    expect((await sandbox.run(['user', 'create', '--from', seed])).exitCode).toBe(0);
    const users = await sandbox.run(['user', 'list', '--all', '-o', 'ndjson', '--fields', 'id,email']);
    const lb2 = results(users.stdout).find((row) => row.email === 'lb2@bulk.example')?.id as number;

    const path = file(
      'loans.csv',
      [
        'user,amount,purpose',
        'lb1@bulk.example,"50,000",Shop stock',
        'lb1@bulk.example,50000,Shop stock', // the same again: a second loan request on purpose
        `${lb2},1250.50,School fees`,
        'nobody@bulk.example,100,Unknown borrower',
        'lb2@bulk.example,-5,Bad amount',
      ].join('\n'),
    );
    const first = await sandbox.run(['loan', 'create', '--from', path, '--concurrency', '4']);
    expect(first.exitCode).toBe(1);
    const rows = results(first.stdout);
    expect(rows.map((row) => row.status)).toEqual(['success', 'success', 'success', 'error', 'error']);
    expect(rows[3]?.message).toMatch(/No user with e-mail nobody@bulk\.example/);
    expect(new Set(rows.slice(0, 3).map((row) => row.id)).size).toBe(3);

    const second = await sandbox.run(['loan', 'create', '--from', path, '--concurrency', '4']);
    expect(second.exitCode).toBe(1);
    const again = results(second.stdout);
    expect(again.map((row) => row.status)).toEqual(['exists', 'exists', 'exists', 'error', 'error']);
    expect(new Set(again.slice(0, 2).map((row) => row.id))).toEqual(new Set(rows.slice(0, 2).map((row) => row.id)));
    expect(again[2]?.id).toBe(rows[2]?.id);
    expect(second.stderr).toMatch(/5 rows: 0 created, 3 existed, 2 failed/);

    const list = await sandbox.run(['loan', 'list', '--all', '-o', 'ndjson', '--fields', 'id,user_id,purpose']);
    const purposes = results(list.stdout).map((row) => (row as unknown as { purpose: string }).purpose);
    expect(purposes.filter((purpose) => purpose === 'Shop stock')).toHaveLength(2);
    expect(purposes.filter((purpose) => purpose === 'School fees')).toHaveLength(1);
  });
});

/**
 * A bulk file is data, whoever wrote it: `user create --from` through `runCli` (the real program,
 * in-process) against the in-process sandbox, with files a careless or hostile writer could hand
 * an operator.
 * - An NDJSON key `__proto__` is a key like any other (and an unknown one): its object never
 *   supplies the row's fields.
 * - An NDJSON line or a CSV record over the documented limit stops the run at once with its
 *   line number, without reading the rest into memory (docs/guide.md, "Limits of a bulk file").
 * - A CSV header of 100,000 unknown columns draws one warning of a readable size.
 * - A reply whose id is not one (a server answering -5) is refused, and the journal records
 *   nothing it could not read back: the next run of the file goes on.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ROW_CHARACTERS } from '../../src/bulk/limits.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';
import { sandboxFront } from '../helpers/sandbox-front.js';

let sandbox: CliSandbox;
const dir = mkdtempSync(join(tmpdir(), 'loanctl-bulk-input-'));

beforeAll(async () => {
  sandbox = await cliSandbox();
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const USER = {
  firstname: 'Ada',
  lastname: 'Obi',
  password: 'correct horse',
  phone: '08012345678',
  gender: 'female',
};

function userLine(email: string): string {
  return JSON.stringify({ ...USER, email });
}

async function exists(email: string): Promise<boolean> {
  const result = await sandbox.run(['user', 'exists', '--email', email, '-o', 'json']);
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout) === true;
}

function results(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

describe('an NDJSON key "__proto__"', () => {
  it('supplies no field: a row whose password is only under __proto__ is refused, and the key is warned about', async () => {
    const { password: _, ...noPassword } = USER;
    const hidden = `{${JSON.stringify({ ...noPassword, email: 'proto1@bulk.example' }).slice(1, -1)},"__proto__":{"password":"pw"}}`;
    const onlyProto = `{"__proto__":${JSON.stringify({ ...USER, email: 'proto2@bulk.example' })}}`;
    const path = file('proto.ndjson', `${hidden}\n${onlyProto}\n${userLine('proto3@bulk.example')}\n`);
    const result = await sandbox.run(['user', 'create', '--from', path, '--concurrency', '1']);
    expect(result.exitCode).toBe(1);
    const rows = results(result.stdout);
    expect(rows.map((row) => row.status)).toEqual(['error', 'error', 'success']);
    expect(rows[0]?.message).toMatch(/Missing password/);
    expect(rows[1]?.message).toMatch(/Missing .*email/);
    // What identifies the row comes from its own keys too: no e-mail it does not have.
    expect(rows[1]?.email).toBeUndefined();
    expect(result.stderr).toContain(`${path}: ignoring unknown key "__proto__": a user has no such field`);
    expect(await exists('proto1@bulk.example')).toBe(false);
    expect(await exists('proto2@bulk.example')).toBe(false);
  });
});

describe('a row over the limit of one row', () => {
  it('an NDJSON line of 40 MB stops the run at once, naming its line (exit 2); the rows before it are sent', async () => {
    const huge = `{"firstname":"${'A'.repeat(40_000_000)}"}`;
    const path = file(
      'huge.ndjson',
      `${userLine('long1@bulk.example')}\n\n${huge}\n${userLine('long2@bulk.example')}\n`,
    );
    const started = performance.now();
    const result = await sandbox.run(['user', 'create', '--from', path, '--concurrency', '1']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      `${path}: line 3 is longer than ${MAX_ROW_CHARACTERS.toLocaleString('en-US')} characters, the most one row may hold`,
    );
    expect(result.stderr.trim().split('\n').at(-1)?.length).toBeLessThan(400);
    expect(await exists('long1@bulk.example')).toBe(true);
    expect(await exists('long2@bulk.example')).toBe(false);
    // Read in proportion to its length (the run stops at the limit): not the 23 s of a quadratic read.
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it('a CSV quote never closed stops the run at the row it starts on (exit 2), not at the end of the file', async () => {
    const header = 'firstname,lastname,email,password,phone,gender';
    const good = 'Ada,Obi,quote1@bulk.example,pw,08012345678,female';
    const open = `"Eze,Chi,quote2@bulk.example,pw,08012345679,male\n${'Zed,Obi,x@bulk.example,pw,0801,male\n'.repeat(1_200_000)}`;
    const path = file('quote.csv', `${header}\n${good}\n${open}`);
    const started = performance.now();
    const result = await sandbox.run(['user', 'create', '--from', path, '--concurrency', '1']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/quote\.csv: row 2 \(from line 3\) is longer than 1,000,000 characters/);
    expect(await exists('quote1@bulk.example')).toBe(true);
    expect(performance.now() - started).toBeLessThan(15_000);
  });
});

describe('a CSV of 100,000 unknown columns', () => {
  it('draws one warning that names a few of them and counts the rest', async () => {
    const unknown = Array.from({ length: 100_000 }, (_, i) => `c${i}`);
    const header = ['firstname', 'lastname', 'email', 'password', 'phone', 'gender', ...unknown].join(',');
    const row = ['Ada', 'Obi', 'wide1@bulk.example', 'pw', '08012345678', 'female', ...unknown.map(() => '')].join(',');
    const path = file('wide.csv', `${header}\n${row}\n`);
    const result = await sandbox.run(['user', 'create', '--from', path]);
    expect(result.exitCode, result.stderr).toBe(0);
    const warning = result.stderr.split('\n').find((line) => line.includes('ignoring unknown columns')) ?? '';
    expect(warning).toContain('"c0"');
    expect(warning).toContain('and 99,990 more');
    expect(warning.length).toBeLessThan(1_500);
  });
});

describe('a reply with an id that is not one', () => {
  it('is refused, and the journal never records it: the next run of the file goes on, with no duplicate', async () => {
    expect(
      (await sandbox.run(['user', 'create', '--from', file('owner.ndjson', `${userLine('owner@bulk.example')}\n`)]))
        .exitCode,
    ).toBe(0);
    const path = file('negative.csv', 'user,amount,purpose\nowner@bulk.example,5000,negative id\n');
    const env = { LOANCTL_STATE_DIR: join(dir, 'state') };
    const front = await sandboxFront(sandbox.url);
    try {
      front.rewrite('createLoanRequest', (reply) => ({ ...reply, data: { ...(reply.data as object), id: -5 } }));
      const first = await sandbox.run(['loan', 'create', '--from', path], {
        env: { ...env, LOANCTL_BASE_URL: front.url },
      });
      expect(first.exitCode).not.toBe(0);
      const [row] = results(first.stdout);
      expect(row?.status).toBe('error');
      expect(row?.message).toMatch(/id -5 is not an id/);
    } finally {
      await front.close();
    }
    const again = await sandbox.run(['loan', 'create', '--from', path], { env });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/cannot be trusted|not a journal line/);
    const list = await sandbox.run(['loan', 'list', '--all', '-o', 'ndjson', '--fields', 'purpose']);
    expect(list.stdout.split('\n').filter((line) => line.includes('negative id'))).toHaveLength(1);
  });
});

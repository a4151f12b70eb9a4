/**
 * The local index of borrowers (src/domain/borrower-index.ts) against a real sandbox: the newest
 * borrower costs one request, and a look-up asked again one, whoever the borrower; an index that fails its check, or that names
 * a borrower the server does not show, is not believed; references seen are answered from it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexPaths, writeIndex } from '../../src/config/user-index.js';
import { borrower } from '../helpers/cli.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';

const USERS = 120;
let sandbox: CliSandbox;
const gets = (stderr: string) => stderr.split('\n').filter((line) => /^debug: > GET /.test(line));

beforeAll(async () => {
  sandbox = await cliSandbox();
  const rows = Array.from(
    { length: USERS },
    (_, i) =>
      `Ada,Number ${i + 1},b${i + 1}@index.example,pw-12345678,080${String(10_000_000 + i).padStart(8, '0')},female`,
  );
  const file = join(mkdtempSync(join(tmpdir(), 'loanctl-index-')), 'users.csv');
  writeFileSync(file, `firstname,lastname,email,password,phone,gender\n${rows.join('\n')}\n`);
  const imported = await sandbox.run(['user', 'create', '--from', file]);
  expect(imported.exitCode, imported.stderr).toBe(0);
});
afterAll(async () => {
  await sandbox?.close();
});

describe('the borrower index', () => {
  it('the first look-up by e-mail walks only as far as its borrower', async () => {
    const fresh = { LOANCTL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'loanctl-index-fresh-')) };
    const first = await sandbox.run(['user', 'show', 'b1@index.example', '-o', 'json', '--debug'], { env: fresh });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).email).toBe('b1@index.example');
    // The page of those created since yesterday (b1 is not among the 50 newest), user exists, then
    // page 1 and the page asked ahead of it: not the whole list.
    expect(gets(first.stderr).length).toBeLessThanOrEqual(4);
  });

  it('the newest borrower costs one request, the first time (no index) and again', async () => {
    const fresh = { LOANCTL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'loanctl-index-newest-')) };
    for (const run of ['first', 'again']) {
      const shown = await sandbox.run(['user', 'show', `b${USERS}@index.example`, '-o', 'json', '--debug'], {
        env: fresh,
      });
      expect(shown.exitCode, `${run}: ${shown.stderr}`).toBe(0);
      expect(JSON.parse(shown.stdout).email).toBe(`b${USERS}@index.example`);
      expect(gets(shown.stderr), run).toEqual([expect.stringMatching(/\/api\/v1\/user\?start=[\d-]+&pages=1$/)]);
    }
  });

  it('the oldest borrower asked for again: one request by e-mail, three by phone', async () => {
    const first = await sandbox.run(['user', 'find', '--phone', '08010000000', '-o', 'ndjson']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stderr).toBe(`Scanned ${USERS} new users (${USERS} in the index); 1 matched.\n`);
    const again = await sandbox.run(['user', 'show', 'B1@index.example', '-o', 'json', '--debug']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).email).toBe('b1@index.example');
    expect(gets(again.stderr)).toHaveLength(1);

    // By phone: the borrowers created since are walked (none: the last page, and the one after), then the match confirmed.
    const phone = await sandbox.run(['user', 'find', '--phone', '08010000000', '-o', 'ndjson', '--debug']);
    expect(phone.exitCode, phone.stderr).toBe(0);
    expect(
      phone.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).email),
    ).toEqual(['b1@index.example']);
    expect(gets(phone.stderr).length).toBeLessThanOrEqual(3);
  });

  it('a borrower created since, no longer among the newest, is found by walking only the new ones', async () => {
    const created = await sandbox.run(
      ['user', 'create', '--firstname', 'New', '--lastname', 'One', '--email', 'new@index.example'].concat([
        '--phone',
        '08099990000',
        '--gender',
        'male',
        '--password-stdin',
      ]),
      { stdin: 'pw-12345678' },
    );
    expect(created.exitCode, created.stderr).toBe(0);
    // Fifty more after it: it is no longer on the first page of those created since yesterday.
    const rows = Array.from(
      { length: 50 },
      (_, i) => `After,Number ${i},after${i}@index.example,pw-12345678,080${30_000_000 + i},male`,
    );
    const file = join(mkdtempSync(join(tmpdir(), 'loanctl-index-after-')), 'users.csv');
    writeFileSync(file, `firstname,lastname,email,password,phone,gender\n${rows.join('\n')}\n`);
    const imported = await sandbox.run(['user', 'create', '--from', file]);
    expect(imported.exitCode, imported.stderr).toBe(0);

    const found = await sandbox.run(['user', 'show', 'new@index.example', '-o', 'json', '--debug']);
    expect(found.exitCode, found.stderr).toBe(0);
    expect(JSON.parse(found.stdout).email).toBe('new@index.example');
    // The page of the newest, user exists, then the list from the last page walked (3 of 120
    // borrowers) on: pages 1 and 2 are not read again.
    const walked = gets(found.stderr).flatMap((line) => /\/api\/v1\/user\?pages=(\d+)$/.exec(line)?.[1] ?? []);
    expect(walked[0]).toBe('3');
    expect(walked).not.toContain('1');
    expect(walked).not.toContain('2');
    expect(gets(found.stderr).length).toBeLessThanOrEqual(4);

    const again = await sandbox.run(['user', 'show', 'new@index.example', '-o', 'json', '--debug']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(gets(again.stderr)).toHaveLength(1);
  });

  it('an index whose text was changed is not believed: one line, rebuilt, the right answer', async () => {
    const { index } = indexPaths(sandbox.env, undefined, sandbox.url);
    const text = readFileSync(index, 'utf8');
    writeFileSync(index, text.replace('"b2@index.example"', '"b3@index.example"'));
    const shown = await sandbox.run(['user', 'show', 'b2@index.example', '-o', 'json']);
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout).email).toBe('b2@index.example');
    expect(shown.stderr).toContain(
      `the borrower index ${index} is not believed (its hash does not match); rebuilding it.`,
    );
  });

  it('an index rewritten whole (its hash made again) that names the wrong borrower is caught by the server', async () => {
    const paths = indexPaths(sandbox.env, undefined, sandbox.url);
    const text = readFileSync(paths.index, 'utf8');
    const trailerAt = text.lastIndexOf('\n#') + 1;
    const mark = JSON.parse(text.slice(trailerAt + 1));
    // b4's e-mail given to b5's line, and b4's line dropped: a wrong id for b4, believed by the hash.
    const lines = text
      .slice(0, trailerAt)
      .split('\n')
      .filter((line) => line !== '' && !line.includes('"b4@index.example"'))
      .map((line) => line.replace('"b5@index.example"', '"b4@index.example"'));
    writeIndex(paths, `${lines.join('\n')}\n`, mark);
    const shown = await sandbox.run(['user', 'show', 'b4@index.example', '-o', 'json']);
    expect(shown.exitCode, shown.stderr).toBe(0);
    const user = JSON.parse(shown.stdout);
    expect(user.email).toBe('b4@index.example');
    expect(user.lastname).toBe('Number 4');
  });

  it('user show REFERENCE answers a reference the import handed back; one never seen says what to use', async () => {
    const created = await sandbox.run(
      ['user', 'create', ...borrower('ref@index.example', '08099990001'), '--password-stdin', '-o', 'json'],
      { stdin: 'pw-12345678' },
    );
    const reference = JSON.parse(created.stdout).reference as string;
    const shown = await sandbox.run(['user', 'show', reference.toLowerCase(), '-o', 'json']);
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout).email).toBe('ref@index.example');

    const never = await sandbox.run(['user', 'show', 'USR-NEVERSEEN']);
    expect(never.exitCode).toBe(4);
    expect(never.stderr).toContain('Reference USR-NEVERSEEN was never seen by loanctl on this profile');
    expect(never.stderr).toContain('loanctl user show EMAIL|ID');

    const { references } = indexPaths(sandbox.env, undefined, sandbox.url);
    writeFileSync(references, readFileSync(references, 'utf8').replace('ref@index.example', 'b9@index.example'));
    const damaged = await sandbox.run(['user', 'show', reference]);
    expect(damaged.exitCode).toBe(2);
    expect(damaged.stderr).toContain(`The reference index ${references} is damaged`);
  });

  it('the references of a bulk import are remembered', async () => {
    const { references } = indexPaths(sandbox.env, undefined, sandbox.url);
    expect(readFileSync(references, 'utf8')).toContain('"b120@index.example"');
  });
});

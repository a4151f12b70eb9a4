/**
 * One reading of a phone number everywhere (docs/guide.md, "Input"): `user create` and
 * `user find` read `+234…`, `234…` and `0…` alike; `user create` refuses a 10-digit number that
 * lost its 0, naming the number it likely was, and `user find` reads it with its 0, as the
 * dashboard's search does; an import reads such a number (a spreadsheet dropped the 0)
 * with its 0 restored and says once how many rows it read so; `--strict` refuses those rows.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { borrower } from '../helpers/cli.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';

let sandbox: CliSandbox;
const dir = mkdtempSync(join(tmpdir(), 'loanctl-phones-'));
const env = { LOANCTL_STATE_DIR: join(dir, 'state') };
const run = (argv: string[], stdin?: string) => sandbox.run(argv, { env, ...(stdin ? { stdin } : {}) });

beforeAll(async () => {
  sandbox = await cliSandbox();
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

function usersFile(name: string, phones: string[]): string {
  const path = join(dir, name);
  const rows = phones.map((phone, i) => `Ada,Obi,${name}.${i}@phones.example,pw,${phone},female`);
  writeFileSync(path, `First Name,Last Name,Email,Password,Phone,Gender\r\n${rows.join('\r\n')}\r\n`);
  return path;
}

describe('phone numbers', () => {
  it('user create refuses a number that lost its 0, naming the number it likely was', async () => {
    const created = await run(
      ['user', 'create', ...borrower('lost@phones.example', '8031535642'), '--password-stdin'],
      'pw',
    );
    expect(created.exitCode).toBe(2);
    expect(created.stderr).toContain('did you mean 08031535642?');
  });

  it('user find reads a number that lost its 0 as the dashboard does, and refuses what is no phone', async () => {
    const created = await run(
      ['user', 'create', ...borrower('zero@phones.example', '08051535642'), '--password-stdin'],
      'pw',
    );
    expect(created.exitCode, created.stderr).toBe(0);
    for (const form of ['8051535642', '805 153 5642']) {
      const found = await run(['user', 'find', '--phone', form, '-o', 'json']);
      expect(found.exitCode, found.stderr).toBe(0);
      expect(JSON.parse(found.stdout)).toEqual([expect.objectContaining({ email: 'zero@phones.example' })]);
    }
    const refused = await run(['user', 'find', '--phone', '5051535642']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--phone must be a Nigerian phone number');
  });

  it('user find reads every form create accepts', async () => {
    const created = await run(
      ['user', 'create', ...borrower('forms@phones.example', '0803 153 5642'), '--password-stdin'],
      'pw',
    );
    expect(created.exitCode, created.stderr).toBe(0);
    for (const form of ['08031535642', '2348031535642', '+234 803 153 5642']) {
      const found = await run(['user', 'find', '--phone', form, '-o', 'json']);
      expect(found.exitCode, found.stderr).toBe(0);
      expect(JSON.parse(found.stdout)).toEqual([expect.objectContaining({ email: 'forms@phones.example' })]);
    }
  });

  it('an import restores the 0 a spreadsheet dropped, with one warning counting those rows', async () => {
    const result = await run([
      'user',
      'create',
      '--from',
      usersFile('excel.csv', ['8031535640', '08031535641', '9031535642']),
    ]);
    expect(result.exitCode, result.stderr).toBe(0);
    const warnings = result.stderr.split('\n').filter((line) => line.includes('without its leading 0'));
    expect(warnings).toEqual([expect.stringContaining('2 rows had a 10-digit phone without its leading 0')]);
    const found = await run(['user', 'find', '--phone', '09031535642', '-o', 'json']);
    expect(JSON.parse(found.stdout)).toEqual([expect.objectContaining({ phone: '+2349031535642' })]);
  });

  it('--strict refuses those rows instead, naming the number they likely were', async () => {
    const result = await run(['user', 'create', '--from', usersFile('strict.csv', ['7031535643']), '--strict']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('did you mean 07031535643?');
    expect(result.stderr).not.toContain('without its leading 0');
  });
});

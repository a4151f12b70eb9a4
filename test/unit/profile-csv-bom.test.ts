/**
 * The profile setting `csvBom`: `profile set NAME --csv-bom` makes `-o csv`
 * begin with the byte-order mark Excel needs, as `--bom` does, without typing the flag each time;
 * `--no-bom` wins for one run, `--no-csv-bom` turns it off, and a config file whose `csvBom` is
 * not true or false is refused in one line. Against the in-process sandbox.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';

const BOM = '\uFEFF';
let sandbox: CliSandbox;
let configFile: string;

const stored = () => JSON.parse(readFileSync(configFile, 'utf8')).profiles.sheet;

beforeAll(async () => {
  sandbox = await cliSandbox();
  configFile = join(sandbox.env.LOANCTL_CONFIG_DIR as string, 'config.json');
  const added = await sandbox.run(
    ['profile', 'add', 'sheet', '--base-url', sandbox.url, '--api-key-stdin', '--insecure-storage'],
    { stdin: sandbox.api_key },
  );
  expect(added.exitCode, added.stderr).toBe(0);
});

afterAll(async () => {
  await sandbox?.close();
});

describe('profile setting csvBom', () => {
  it('off by default: -o csv has no byte-order mark', async () => {
    const list = await sandbox.run(['user', 'list', '-o', 'csv']);
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stdout.startsWith('id,')).toBe(true);
  });

  it('--csv-bom stores csvBom: true, and -o csv then begins with the BOM; --no-bom wins for one run', async () => {
    const set = await sandbox.run(['profile', 'set', 'sheet', '--csv-bom']);
    expect(set.exitCode, set.stderr).toBe(0);
    expect(set.stderr).toContain('-o csv with a byte-order mark');
    expect(stored().csvBom).toBe(true);
    // The setting shows where the profile's other settings show.
    const shown = JSON.parse((await sandbox.run(['profile', 'show', 'sheet', '-o', 'json'])).stdout);
    expect(shown).toMatchObject({ name: 'sheet', csv_bom: true, dashboard_url: null });

    const list = await sandbox.run(['user', 'list', '-o', 'csv']);
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stdout.startsWith(`${BOM}id,`)).toBe(true);

    const plain = await sandbox.run(['user', 'list', '-o', 'csv', '--no-bom']);
    expect(plain.stdout.startsWith('id,')).toBe(true);
    const json = await sandbox.run(['user', 'list', '-o', 'json']);
    expect(json.stdout.startsWith(BOM)).toBe(false);
    // A profile named for the run is the one whose setting counts.
    const other = await sandbox.run(['user', 'list', '-o', 'csv'], { env: { LOANCTL_PROFILE: 'sheet' } });
    expect(other.stdout.startsWith(BOM)).toBe(true);
  });

  it('--no-csv-bom removes the setting', async () => {
    const set = await sandbox.run(['profile', 'set', 'sheet', '--no-csv-bom']);
    expect(set.exitCode, set.stderr).toBe(0);
    expect(stored()).not.toHaveProperty('csvBom');
    const list = await sandbox.run(['user', 'list', '-o', 'csv']);
    expect(list.stdout.startsWith('id,')).toBe(true);
  });

  it('a csvBom that is not true or false is refused in one line, naming the field', async () => {
    const good = readFileSync(configFile, 'utf8');
    const config = JSON.parse(good);
    config.profiles.sheet.csvBom = 'yes';
    writeFileSync(configFile, JSON.stringify(config));
    try {
      const list = await sandbox.run(['user', 'list', '-o', 'csv']);
      expect(list.exitCode).toBe(2);
      expect(list.stdout).toBe('');
      expect(list.stderr).toContain('has "csvBom": "yes", which must be true or false (e.g. "csvBom": true).');
      expect(list.stderr).not.toMatch(/\n\s+at /);
    } finally {
      writeFileSync(configFile, good);
    }
  });
});

/**
 * The state files loanctl reads back — the config file, the e-mail index cache, the bulk journal —
 * are checked before they are believed (issue 22, items 6 and 7; issue 25, item 1): one it cannot
 * trust stops the command with one line and is left as it was, never a silent skip, a rewrite
 * without what it could not read, a duplicate, or a read that blocks on a FIFO.
 * The real program in-process (../helpers/run-cli.ts), against the in-process sandbox where a
 * server is needed.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { userIndexPath } from '../../src/config/user-index.js';
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

describe('the e-mail index cache', () => {
  it('a FIFO where the index file should be is refused at once, naming it', async () => {
    const api = await server();
    const created = await api.run(['user', 'create', ...borrower('fifo@example.com'), '--password-stdin'], {
      stdin: 'pw-12345678',
    });
    expect(created.exitCode).toBe(0);
    const path = userIndexPath(api.env, undefined, api.url);
    mkdirSync(join(path, '..'), { recursive: true });
    mkfifo(path);
    // Before: the look-up blocked reading the FIFO.
    const shown = await api.run(['user', 'show', 'fifo@example.com']);
    expect(shown.exitCode).toBe(2);
    expect(shown.stderr).toContain(`The e-mail index cache ${path} is a FIFO, not a file`);
    rmSync(path);
  });
});

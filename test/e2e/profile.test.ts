/**
 * `loanctl profile …` and the global behaviour around it, run in-process (`runCli`, the real
 * program with its own environment) with a temporary HOME and LOANCTL_CONFIG_DIR. A profile added
 * here keeps its key in the file (`--insecure-storage`): keyring.test.ts covers the keyring, and
 * ./profile-writers.test.ts several processes writing profiles at once.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closedPort } from '../helpers/ports.js';
import { runCli } from '../helpers/run-cli.js';

const KEY = 'sk_live_E2ESECRETKEY_00c0ffee';

/** No waits between retries: the closed-port case retries three times. */
const noSleep = async () => {};

/** A run whose stdout and stderr lose their last newline, as a spawned run's do (execa). */
async function loanctl(args: string[], options: { dir: string; input?: string; env?: Record<string, string> }) {
  const result = await runCli(args, {
    stdin: options.input ?? '',
    sleep: noSleep,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: options.dir,
      LOANCTL_CONFIG_DIR: join(options.dir, 'config'),
      ...options.env,
    },
  });
  return { ...result, stdout: result.stdout.replace(/\n$/, ''), stderr: result.stderr.replace(/\n$/, '') };
}

const homes: string[] = [];
function newHome() {
  const home = mkdtempSync(join(tmpdir(), 'loanctl-e2e-profile-'));
  homes.push(home);
  return home;
}
afterAll(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

describe('loanctl profile (in-process)', () => {
  it('adds a profile with the key from stdin, lists, shows, switches and removes it; the key never shows', async () => {
    const dir = newHome();
    const outputs: string[] = [];
    const run = async (args: string[], input?: string) => {
      const result = await loanctl(args, { dir, input });
      outputs.push(result.stdout, result.stderr);
      return result;
    };

    const added = await run(
      // --insecure-storage: this test is about the file (keyring.test.ts covers the keyring).
      [
        'profile',
        'add',
        'prod',
        '--base-url',
        'https://api.example.com/',
        '--product-id',
        '12',
        '--api-key-stdin',
        '--insecure-storage',
      ],
      `${KEY}\n`,
    );
    expect(added.exitCode).toBe(0);
    expect(added.stdout).toBe('');
    expect(added.stderr).toContain('Added profile "prod"');
    expect(added.stderr).toContain('It is the current profile.');
    const file = join(dir, 'config', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.prod).toEqual({
      baseUrl: 'https://api.example.com',
      apiKey: KEY,
      productId: 12,
    });

    expect(
      (
        await run(
          ['profile', 'add', 'local', '--base-url', 'http://127.0.0.1:4010', '--api-key-stdin', '--insecure-storage'],
          'local-key-1234567890\n',
        )
      ).exitCode,
    ).toBe(0);

    const listed = await run(['profile', 'list', '-o', 'json']);
    expect(listed.exitCode).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      {
        name: 'local',
        current: false,
        base_url: 'http://127.0.0.1:4010',
        product_id: null,
        org_id: null,
        api_key: '…7890',
        key_storage: 'file',
        dashboard_url: null,
        csv_bom: false,
      },
      {
        name: 'prod',
        current: true,
        base_url: 'https://api.example.com',
        product_id: 12,
        org_id: null,
        api_key: 'sk_live_…ffee',
        key_storage: 'file',
        dashboard_url: null,
        csv_bom: false,
      },
    ]);
    const table = await run(['profile', 'list', '-o', 'table']);
    expect(table.stdout.split('\n')[0]).toMatch(/^CURRENT\s+NAME\s+BASE URL\s+PRODUCT\s+ORG\s+API KEY\s+KEY IN$/);
    expect(table.stdout).toMatch(/^yes\s+prod\s+/m);

    const shown = await run(['profile', 'show', '-o', 'table']);
    expect(shown.stdout).toMatch(/^API key\s+sk_live_…ffee$/m);
    expect(shown.stdout).toMatch(/^Name\s+prod$/m);

    const used = await run(['profile', 'use', 'local']);
    expect(used.exitCode).toBe(0);
    expect(JSON.parse((await run(['profile', 'show', '-o', 'json'])).stdout)).toMatchObject({
      name: 'local',
      current: true,
    });
    expect(JSON.parse((await run(['profile', 'show', 'prod'])).stdout)).toMatchObject({ name: 'prod', current: false });

    const removed = await run(['profile', 'remove', 'local']);
    expect(removed.exitCode).toBe(0);
    expect(removed.stderr).toContain('no current profile now');
    expect(JSON.parse((await run(['profile', 'list'])).stdout).map((p: { name: string }) => p.name)).toEqual(['prod']);

    // --debug and --dry-run through the api command: key redacted there too.
    const dry = await run([
      'api',
      'GET',
      '/loan_request',
      '--profile',
      'prod',
      '-q',
      'direction=DESC',
      '--dry-run',
      '--debug',
    ]);
    expect(dry.exitCode).toBe(0);
    expect(dry.stdout).toBe(
      "curl -X GET 'https://api.example.com/api/v1/loan_request?direction=DESC' -H 'Accept: application/json' -H 'Authorization: Bearer ***'",
    );

    for (const text of outputs) expect(text).not.toContain(KEY);
    expect(outputs.join('')).not.toContain('E2ESECRET');
  });

  it('without a key on stdin and no terminal: exit 2 naming --api-key-stdin, nothing written', async () => {
    const dir = newHome();
    const result = await loanctl(['profile', 'add', 'prod', '--base-url', 'https://api.example.com'], { dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--api-key-stdin');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'config', 'config.json'))).toBe(false);
  });

  it('refuses plain http to a non-loopback host (exit 2, saying to use https)', async () => {
    const dir = newHome();
    const result = await loanctl(
      ['profile', 'add', 'prod', '--base-url', 'http://api.example.com', '--api-key-stdin', '--insecure-storage'],
      {
        dir,
        input: KEY,
      },
    );
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('plain http:// is refused for api.example.com');
    expect(result.stderr).toContain('Use https://api.example.com');
  });

  it.skipIf(!existsSync('/proc/self'))(
    'a config dir that cannot be created (under /proc) is exit 2 with one line, at once',
    async () => {
      const result = await loanctl(
        ['profile', 'add', 'prod', '--base-url', 'https://api.example.com', '--api-key-stdin', '--insecure-storage'],
        {
          dir: newHome(),
          input: KEY,
          env: { LOANCTL_CONFIG_DIR: '/proc/loanctl-config' },
        },
      );
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toBe(
        'loanctl: Cannot write the config file: cannot create /proc/loanctl-config (no such file or directory). Set LOANCTL_CONFIG_DIR to a directory you can write.',
      );
    },
  );

  it('an unknown profile is exit 2 listing the ones there are', async () => {
    const dir = newHome();
    await loanctl(
      ['profile', 'add', 'prod', '--base-url', 'https://api.example.com', '--api-key-stdin', '--insecure-storage'],
      {
        dir,
        input: KEY,
      },
    );
    const result = await loanctl(['profile', 'use', 'staging'], { dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      'loanctl: No profile named "staging". Profiles: prod. Add one with: loanctl profile add staging --base-url URL',
    );
  });

  it('an unknown subcommand or flag is exit 2 with the closest suggestion', async () => {
    const dir = newHome();
    const verb = await loanctl(['profile', 'lst'], { dir });
    expect(verb.exitCode).toBe(2);
    expect(verb.stderr).toContain('Did you mean list?');
    const flag = await loanctl(['profile', 'list', '--outptu', 'json'], { dir });
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr).toContain('Did you mean --output?');
    const noun = await loanctl(['profle', 'list'], { dir });
    expect(noun.exitCode).toBe(2);
    expect(noun.stderr).toContain('Did you mean profile?');
    const format = await loanctl(['profile', 'list', '-o', 'yaml'], { dir });
    expect(format.exitCode).toBe(2);
  });

  it('every profile verb and api has a description and an example in --help', async () => {
    const dir = newHome();
    for (const args of [
      ['profile'],
      ['profile', 'add'],
      ['profile', 'list'],
      ['profile', 'use'],
      ['profile', 'show'],
      ['profile', 'remove'],
      ['profile', 'test'],
      ['profile', 'move-key'],
      ['api'],
    ]) {
      const result = await loanctl([...args, '--help'], { dir });
      expect(result.exitCode, args.join(' ')).toBe(0);
      expect(result.stdout, args.join(' ')).toMatch(/Examples:\n {2}\$ .*loanctl /);
    }
  });

  it('api with no key configured is exit 3 and says how to add one', async () => {
    const dir = newHome();
    const result = await loanctl(['api', 'GET', '/user', '--base-url', 'http://127.0.0.1:9'], { dir });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toBe(
      'loanctl: No API key is configured. Add a profile (loanctl profile add NAME --base-url URL) or set LOANCTL_API_KEY.',
    );
  });

  it('api against a closed port is exit 5 with one line, and exits promptly', async () => {
    const dir = newHome();
    const port = await closedPort();
    const result = await loanctl(['api', 'GET', '/user', '--base-url', `http://127.0.0.1:${port}`], {
      dir,
      env: { LOANCTL_API_KEY: KEY },
    });
    expect(result.exitCode).toBe(5);
    const lines = result.stderr.trim().split('\n');
    expect(lines.at(-1)).toBe(
      `loanctl: Could not connect to 127.0.0.1:${port}: connection refused. Is the server running? Check the base URL (--base-url http://127.0.0.1:${port}) and your network.`,
    );
    expect(lines.slice(0, -1).every((line) => line.includes('retrying'))).toBe(true);
    expect(result.stdout + result.stderr).not.toContain(KEY);
  });
});

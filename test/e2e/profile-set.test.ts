/**
 * `loanctl profile set`: one field of a profile changes, the others stay. The key goes
 * where the profile keeps it; these profiles keep it in the file (keyring.test.ts spawns for the keyring).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedCliEnv, runCli } from '../helpers/run-cli.js';

const OLD_KEY = 'sk_live_OLDSECRETKEY_0000aaaa';
const NEW_KEY = 'sk_live_NEWSECRETKEY_1111bbbb';

async function withProfile() {
  const env = isolatedCliEnv();
  const run = (argv: string[], stdin?: string) => runCli(argv, { env, stdin });
  const added = await run(
    [
      'profile',
      'add',
      'prod',
      '--base-url',
      'https://api.example.com',
      '--product-id',
      '3',
      '--api-key-stdin',
      '--insecure-storage',
    ],
    OLD_KEY,
  );
  expect(added.exitCode, added.stderr).toBe(0);
  const stored = () =>
    JSON.parse(readFileSync(join(env.LOANCTL_CONFIG_DIR as string, 'config.json'), 'utf8')).profiles.prod;
  return { run, stored };
}

describe('loanctl profile set', () => {
  it('changes the product id and keeps the base URL and the key', async () => {
    const { run, stored } = await withProfile();
    const set = await run(['profile', 'set', 'prod', '--product-id', '9']);
    expect(set.exitCode, set.stderr).toBe(0);
    expect(set.stderr).toBe('Changed profile "prod": product 9. Everything else is as it was.\n');
    expect(stored()).toEqual({ baseUrl: 'https://api.example.com', apiKey: OLD_KEY, productId: 9 });
  });

  it('changes the base URL and keeps the product id', async () => {
    const { run, stored } = await withProfile();
    const set = await run(['profile', 'set', 'prod', '--base-url', 'https://api2.example.com/']);
    expect(set.exitCode, set.stderr).toBe(0);
    expect(stored()).toEqual({ baseUrl: 'https://api2.example.com', apiKey: OLD_KEY, productId: 3 });
  });

  it('replaces the key from stdin, where the profile keeps it, without printing it', async () => {
    const { run, stored } = await withProfile();
    const set = await run(['profile', 'set', 'prod', '--api-key-stdin'], NEW_KEY);
    expect(set.exitCode, set.stderr).toBe(0);
    expect(set.stderr).toContain('API key (in the config file)');
    expect(`${set.stdout}${set.stderr}`).not.toContain('NEWSECRET');
    expect(stored()).toEqual({ baseUrl: 'https://api.example.com', apiKey: NEW_KEY, productId: 3 });
  });

  it.each([
    [['profile', 'set', 'prod'], /^loanctl: Nothing to change\. Give --base-url/],
    [['profile', 'set', 'ghost', '--product-id', '4'], /^loanctl: No profile named "ghost"\./],
    [['profile', 'set', 'prod', '--base-url', 'http://api.example.com'], /https/],
    [['profile', 'set', 'prod', '--product-id', 'x'], /--product-id: "x" is not a whole number/],
  ])('%j is a usage error (exit 2) that changes nothing', async (argv, line) => {
    const { run, stored } = await withProfile();
    const before = stored();
    const result = await run(argv);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(line);
    expect(stored()).toEqual(before);
  });
});

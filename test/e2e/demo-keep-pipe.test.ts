/**
 * `loanctl demo` as a process: `--keep` never replaces a `sandbox` profile the user
 * has, and `loanctl demo | head -1` in a real shell pipe still removes its temporary directory
 * (and the sandbox key in it) although the closed pipe ends the process early (EPIPE).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertBuilt, BIN, keptDemo, ROOT, spawnHome } from '../helpers/cli.js';

let home: string;
let env: Record<string, string>;
let removeHome: () => void;

beforeEach(() => {
  assertBuilt();
  ({ home, env, remove: removeHome } = spawnHome('loanctl-e2e-demo-keep-'));
});

afterEach(() => removeHome());

const demoDirs = () => readdirSync(home).filter((name) => name.startsWith('loanctl-demo-'));

describe('loanctl demo', () => {
  it('`loanctl demo | head -1` prints one line and leaves no temporary directory behind', () => {
    const line = execFileSync('sh', ['-c', '"$NODE" "$BIN" demo | head -1'], {
      env: { ...env, NODE: process.execPath, BIN },
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 60_000,
    });
    expect(line.split('\n').filter(Boolean)).toHaveLength(1);
    expect(demoDirs()).toEqual([]);
  });

  it('--keep writes the profile sandbox-2 when a sandbox profile exists, and says so', async () => {
    const add = await execa(
      process.execPath,
      [
        BIN,
        'profile',
        'add',
        'sandbox',
        '--base-url',
        'https://api.example.com',
        '--api-key-stdin',
        '--insecure-storage',
      ],
      { env, extendEnv: false, reject: false, input: 'sk_live_MINE_0123456789abcdef', cwd: ROOT },
    );
    expect(add.exitCode, String(add.stderr)).toBe(0);
    const { child, stderr: written } = await keptDemo(env);
    try {
      const stderr = written();
      expect(stderr).toContain('Profile "sandbox-2" points at this sandbox');
      expect(stderr).toContain('Your "sandbox" profile is kept as it was.');
      expect(stderr).toContain('loanctl --profile sandbox-2 loan show 1');
      const config = JSON.parse(readFileSync(join(env.LOANCTL_CONFIG_DIR as string, 'config.json'), 'utf8'));
      expect(config.profiles.sandbox).toEqual({
        baseUrl: 'https://api.example.com',
        apiKey: 'sk_live_MINE_0123456789abcdef',
      });
      expect(config.profiles['sandbox-2'].baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      child.kill('SIGINT');
      expect((await child).exitCode, written()).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});

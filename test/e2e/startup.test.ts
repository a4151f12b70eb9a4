/**
 * The start-up shortcuts of src/entry.ts print exactly what commander would: `--version` alone, and
 * `--help` alone to a pipe (the root help rendered by scripts/build.mjs into dist/root-help.txt).
 * Runs the built CLI (npm test builds). How fast they start is a goal of `npm run bench`
 * (bench/README.md), never asserted here, nor which modules they load.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'loanctl.js');
const env = { PATH: process.env.PATH ?? '', HOME: '/nonexistent', LOANCTL_CONFIG_DIR: '/nonexistent/loanctl' };
const run = (args: string[]) => execa(process.execPath, [BIN, ...args], { env, extendEnv: false, stdin: 'ignore' });

describe('start-up shortcuts', () => {
  it('--version and -v print the package version, how it was installed and its commit, as commander does', async () => {
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
    // The commit dist/ was built from (HEAD may have moved on since the build).
    const line = new RegExp(`^loanctl ${version} \\(checkout, commit [0-9a-f]{7}, node ${process.versions.node}\\)$`);
    // A second flag takes commander's path.
    const viaCommander = await run(['--version', '--no-color']);
    expect(viaCommander.stdout).toMatch(line);
    for (const flag of ['--version', '-v']) {
      const result = await run([flag]);
      expect(result.stdout).toBe(viaCommander.stdout);
      expect(result.exitCode).toBe(0);
    }
  });

  it('--help and -h to a pipe print the root help commander renders at width 80', async () => {
    const viaCommander = await run(['--help', '--no-color']);
    expect(viaCommander.stdout).toMatch(/^Usage: loanctl/);
    for (const flag of ['--help', '-h']) {
      const result = await run([flag]);
      expect(result.stdout).toBe(viaCommander.stdout);
      expect(result.exitCode).toBe(0);
    }
  });

  it('--help, --version, profile list and completion need no key, base URL or proxy that works', async () => {
    // Settings that stop any command that calls the API: a plain-http base URL and a proxy that is not a URL.
    const broken = { ...env, LOANCTL_BASE_URL: 'http://plain.example.com', HTTPS_PROXY: '::not a url' };
    const runBroken = (args: string[]) =>
      execa(process.execPath, [BIN, ...args], { env: broken, extendEnv: false, stdin: 'ignore', reject: false });
    const calling = await runBroken(['user', 'exists', '--email', 'ada@example.com']);
    expect(calling.exitCode).toBe(2);
    expect(calling.stderr).toContain('LOANCTL_BASE_URL: plain http:// is refused');
    for (const args of [
      ['--help'],
      ['--version'],
      ['loan', 'approve', '--help'],
      ['profile', 'list'],
      ['completion', 'bash'],
    ]) {
      const result = await runBroken(args);
      expect(result.exitCode, args.join(' ')).toBe(0);
      expect(result.stdout, args.join(' ')).not.toBe('');
      expect(result.stderr, args.join(' ')).not.toContain('LOANCTL_BASE_URL');
    }
  });
});

/**
 * The npm package as a user gets it: `npm pack`, then `npm install -g` of the tarball into a fresh
 * prefix on this Node (the pinned 24) — no warning, no build step — and `loanctl` from another
 * directory: `--version` says it is the npm package, the demo runs. On a Node older than 22.13 the
 * bin says what to do. Then examples/sandbox-in-tests, a lender's own suite, installs the same
 * tarball and passes against `loanctl/sandbox`. Uses the npm registry (or npm's cache).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const INSTALL_TIMEOUT = 240_000;
let work: string;
let tarball: string;
/** This machine's environment for npm (its cache, its registry settings), less what `npm run` adds. */
const npmEnv = () => {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^npm_/i.test(name)) env[name] = value;
  }
  // Plain output to read (vitest's run sets FORCE_COLOR for its own workers).
  delete env.FORCE_COLOR;
  env.NO_COLOR = '1';
  // The Node that runs this test (the pinned 24) first.
  env.PATH = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
  return env;
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'loanctl-package-'));
  // The dist/ built before the tests (npm test builds it): npm pack's own rebuild (prepack) would
  // swap dist/ under the other process tests running beside this one.
  const options = { cwd: ROOT, env: npmEnv(), extendEnv: false };
  await execa('npm', ['pack', '--ignore-scripts', '--pack-destination', work], options);
  const [name] = readdirSync(work).filter((file) => file.endsWith('.tgz'));
  tarball = join(work, name ?? 'missing.tgz');
}, INSTALL_TIMEOUT);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the npm package', () => {
  it(
    'installs globally with no warning, and loanctl runs from any directory',
    async () => {
      const prefix = join(work, 'global');
      const installed = await execa('npm', ['install', '-g', '--prefix', prefix, tarball], {
        cwd: work,
        env: npmEnv(),
        extendEnv: false,
      });
      expect(installed.stderr).not.toMatch(/warn/i);
      expect(existsSync(join(prefix, 'lib', 'node_modules', 'loanctl', 'src'))).toBe(false);

      const elsewhere = mkdtempSync(join(work, 'elsewhere-'));
      const env = { PATH: `${join(prefix, 'bin')}:${dirname(process.execPath)}:/usr/bin:/bin`, HOME: elsewhere };
      const loanctl = (args: string[]) =>
        execa('loanctl', args, { cwd: elsewhere, env, extendEnv: false, reject: false });
      const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
      expect((await loanctl(['--version'])).stdout).toMatch(
        new RegExp(`^loanctl ${version} \\(npm, commit \\w+, node `),
      );
      const demo = await loanctl(['demo', '-o', 'json']);
      expect(demo.exitCode, demo.stderr).toBe(0);
      expect(JSON.parse(demo.stdout)).toHaveLength(9);
    },
    INSTALL_TIMEOUT,
  );

  const oldNode = ['/usr/bin/node', '/usr/local/bin/node'].find(
    (path) => existsSync(path) && Number(nodeVersion(path).split('.')[0]) < 22,
  );
  it.skipIf(!oldNode)('on a Node older than 22.13 says to use the binary or a newer Node (exit 2)', async () => {
    const bin = join(work, 'global', 'lib', 'node_modules', 'loanctl', 'bin', 'loanctl.js');
    const result = await execa(oldNode as string, [bin, 'demo'], { reject: false });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^loanctl needs Node\.js 22\.13 or newer; this is v\d+/);
    expect(result.stderr).toContain('single-file loanctl binary');
  });

  it(
    "a lender's own test suite (examples/sandbox-in-tests) installs it and starts the sandbox from it",
    async () => {
      const example = join(work, 'sandbox-in-tests');
      cpSync(join(ROOT, 'examples', 'sandbox-in-tests'), example, { recursive: true });
      await execa('npm', ['install', '--save-dev', tarball], { cwd: example, env: npmEnv(), extendEnv: false });
      const tested = await execa('npm', ['test'], { cwd: example, env: npmEnv(), extendEnv: false, reject: false });
      expect(tested.exitCode, tested.stdout + tested.stderr).toBe(0);
      expect(tested.stdout).toMatch(/Tests\s+3 passed/);
    },
    INSTALL_TIMEOUT,
  );
});

function nodeVersion(node: string): string {
  return execFileSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
}

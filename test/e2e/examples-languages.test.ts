/**
 * The sandbox from any language: examples/sandbox-in-python (a pytest fixture) and
 * examples/sandbox-in-go (a Go test suite) each start it with `loanctl sandbox start --detach
 * --port 0 -o json`, use the URL and keys it prints, and stop it. Each runs where its language is
 * installed (.ci/run installs Go; the machine's python3 with pytest), and is skipped with the
 * reason printed where it is not.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, BIN, isolatedEnv, ROOT } from '../helpers/sandbox-process.js';

/** Why a tool cannot run here, or undefined when it can. */
function missing(command: string, args: string[], what: string): string | undefined {
  const probe = spawnSync(command, args, { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return `${what} is not installed here (${command} ${args.join(' ')} failed)`;
  return undefined;
}

const noPytest = missing('python3', ['-m', 'pytest', '--version'], 'Python with pytest');
const noGo = missing('go', ['version'], 'Go');
for (const reason of [noPytest, noGo]) {
  if (reason) process.stderr.write(`examples-languages: skipped: ${reason}.\n`);
}

/** The CLI as the examples run it: this test's Node and the built bin, in an isolated home. */
function exampleEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { ...isolatedEnv(), LOANCTL: `${process.execPath} ${BIN}`, ...extra };
}

describe('the sandbox from other languages', () => {
  beforeAll(() => assertBuilt());

  it.skipIf(noPytest !== undefined)('a pytest suite with a session fixture', async () => {
    const run = await execa('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '.'], {
      cwd: join(ROOT, 'examples', 'sandbox-in-python'),
      env: exampleEnv({ PYTHONDONTWRITEBYTECODE: '1' }),
      extendEnv: true,
      reject: false,
    });
    expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/2 passed/);
  });

  it.skipIf(noGo !== undefined)(
    'a Go test suite with TestMain',
    async () => {
      const cache = mkdtempSync(join(tmpdir(), 'loanctl-go-cache-'));
      const run = await execa('go', ['test', '-count=1', '-v', './...'], {
        cwd: join(ROOT, 'examples', 'sandbox-in-go'),
        // Offline: the example needs nothing beyond the standard library.
        env: exampleEnv({
          GOCACHE: join(cache, 'build'),
          GOPATH: join(cache, 'path'),
          GOPROXY: 'off',
          GOFLAGS: '-mod=mod',
        }),
        extendEnv: true,
        reject: false,
      });
      expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toContain('--- PASS: TestCreatesABorrowerAndTheSandboxSawIt');
      expect(run.stdout).toContain('--- PASS: TestOneRequestCanAskForItsOwnFailure');
    },
    180_000,
  );
});

/**
 * `sandbox stop` waits up to the global `--timeout` for the sandbox to exit. Stop had a
 * `--timeout` of its own that never got its value (the root parses `--timeout` wherever it stands
 * on the line), so it always waited 30 s.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_FILE_NAME } from '../../src/sandbox/control/run-file.js';
import { isolatedCliEnv, runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/sandbox.js';

describe('loanctl sandbox stop --timeout', () => {
  it('gives up after the given seconds on a server that does not exit, with exit 1 and what to do', async () => {
    const dataDir = tempDir();
    // A "server" that ignores SIGTERM: stop must give up on it, not wait forever.
    const stubborn = spawn('sh', ['-c', 'trap "" TERM; while :; do sleep 1; done'], { stdio: 'ignore' });
    try {
      const info = { pid: stubborn.pid, url: 'http://127.0.0.1:1', started_at: new Date().toISOString() };
      writeFileSync(join(dataDir, RUN_FILE_NAME), JSON.stringify(info));
      const started = Date.now();
      const stop = await runCli(['sandbox', 'stop', '--data-dir', dataDir, '--timeout', '1'], {
        env: isolatedCliEnv(),
      });
      expect(stop.exitCode).toBe(1);
      expect(stop.stderr).toContain(
        `The sandbox (pid ${stubborn.pid}) is still running 1 s after it was asked to stop.`,
      );
      expect(stop.stderr).toContain(`kill -9 ${stubborn.pid}`);
      // Generous for a loaded machine, and far below the 30 s it waited before.
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      stubborn.kill('SIGKILL');
    }
  }, 40_000);
});

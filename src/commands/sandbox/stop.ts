/**
 * `loanctl sandbox stop`: SIGTERM to the sandbox serving this data dir, then wait until it has
 * exited. The server stops accepting connections, answers the requests in flight, and closes its
 * database (every write it acknowledged was committed first). Nothing running is not an error.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { timeoutMs } from '../../config/settings.js';
import type { Deps } from '../../deps.js';
import { LoanctlError } from '../../errors.js';
import { openOutcome } from '../../output/render.js';
import { processAlive, readRunning } from '../../sandbox/control/run-file.js';
import type { DataDirOptions } from './data-dir.js';
import { resolveDataDir } from './run-helpers.js';

export type SandboxStopOptions = DataDirOptions;

const POLL_MS = 50;

export async function runSandboxStop(options: SandboxStopOptions, deps: Deps): Promise<void> {
  const dataDir = resolveDataDir(options.dataDir, deps);
  // The global --timeout, which the root parses wherever it stands on the line: a `--timeout` of
  // stop's own was never given its value (stop always waited 30 s).
  const waitMs = timeoutMs(deps.globals.timeout);
  const output = await openOutcome(deps, ['stopped', 'pid', 'data_dir']);
  const info = readRunning(dataDir);
  if (!info) {
    deps.io.stderr.write(`No sandbox is running on ${dataDir}; nothing to stop.\n`);
    await output.print({ stopped: false, data_dir: dataDir }, []);
    return;
  }
  try {
    process.kill(info.pid, 'SIGTERM');
  } catch (error) {
    // EPERM: the sandbox runs as another user; ESRCH: it exited just now (the loop below sees it).
    if ((error as NodeJS.ErrnoException).code === 'EPERM') {
      throw new LoanctlError(`Not allowed to stop the sandbox (pid ${info.pid}): it runs as another user.`, 1);
    }
  }
  const deadline = Date.now() + waitMs;
  while (processAlive(info.pid)) {
    if (Date.now() > deadline) {
      throw new LoanctlError(
        `The sandbox (pid ${info.pid}) is still running ${waitMs / 1000} s after it was asked to stop.`,
        1,
        `It may be finishing long requests: wait, or force it with \`kill -9 ${info.pid}\`.`,
      );
    }
    await sleep(POLL_MS);
  }
  readRunning(dataDir); // removes the run file if the server could not (it was killed meanwhile)
  deps.io.stderr.write(`Stopped the sandbox on ${info.url ?? dataDir} (pid ${info.pid}).\n`);
  await output.print({ stopped: true, pid: info.pid, data_dir: dataDir }, []);
}

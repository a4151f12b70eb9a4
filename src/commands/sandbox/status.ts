/** `loanctl sandbox status`: is a sandbox serving this data dir, where, since when. Exit 4 when none is. */
import type { Deps } from '../../deps.js';
import { ExitCode, LoanctlError } from '../../errors.js';
import { formatDuration } from '../../input/duration.js';
import { openOutcome } from '../../output/render.js';
import { sandboxState } from '../../sandbox/control/run-file.js';
import type { DataDirOptions } from './data-dir.js';
import { resolveDataDir } from './run-helpers.js';

const STATUS_FIELDS = ['running', 'url', 'pid', 'data_dir', 'started_at', 'uptime_s', 'log_file'];

export async function runSandboxStatus(options: DataDirOptions, deps: Deps): Promise<void> {
  const dataDir = resolveDataDir(options.dataDir, deps);
  const output = await openOutcome(deps, STATUS_FIELDS);
  const status = sandboxState(dataDir, deps.now());
  if (!status.running) {
    // A script reads the answer on stdout too; a table says it in the error line.
    await output.print(status, []);
    throw new LoanctlError(
      `No sandbox is running on ${dataDir}.`,
      ExitCode.noAccess,
      'Start one with `loanctl sandbox start --detach`.',
    );
  }
  await output.print(status, statusLines(status, status.uptime_s * 1000));
}

function statusLines(
  status: { url: string | null; pid: number; data_dir: string; started_at: string; log_file: string | null },
  uptimeMs: number,
): string[] {
  return [
    `Sandbox running on ${status.url ?? '(starting)'}`,
    `  pid:       ${status.pid}`,
    `  data dir:  ${status.data_dir}`,
    `  uptime:    ${formatDuration(uptimeMs)} (since ${status.started_at})`,
    ...(status.log_file ? [`  log file:  ${status.log_file}`] : []),
  ];
}

/** `loanctl sandbox status`: is a sandbox serving this data dir, where, since when. Exit 4 when none is. */
import type { Deps } from '../../deps.js';
import { ExitCode, LoanctlError } from '../../errors.js';
import { formatDuration } from '../../input/duration.js';
import { openOutcome } from '../../output/render.js';
import { readRunning } from '../../sandbox/control/run-file.js';
import { resolveDataDir } from './common.js';
import type { DataDirOptions } from './data-dir.js';

const STATUS_FIELDS = ['running', 'url', 'pid', 'data_dir', 'started_at', 'uptime_s', 'log_file'];

export async function runSandboxStatus(options: DataDirOptions, deps: Deps): Promise<void> {
  const dataDir = resolveDataDir(options.dataDir, deps);
  const output = await openOutcome(deps, STATUS_FIELDS);
  const info = readRunning(dataDir);
  if (!info) {
    // A script reads the answer on stdout too; a table says it in the error line.
    await output.print({ running: false, data_dir: dataDir }, []);
    throw new LoanctlError(
      `No sandbox is running on ${dataDir}.`,
      ExitCode.noAccess,
      'Start one with `loanctl sandbox start --detach`.',
    );
  }
  const uptimeMs = Math.max(0, deps.now().getTime() - Date.parse(info.started_at));
  const status = {
    running: true,
    url: info.url ?? null,
    pid: info.pid,
    data_dir: dataDir,
    started_at: info.started_at,
    uptime_s: Math.floor(uptimeMs / 1000),
    log_file: info.log_file ?? null,
  };
  await output.print(status, statusLines(status, uptimeMs));
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

/** `loanctl sandbox status`: is a sandbox serving this data dir, where, since when. Exit 4 when none is. */
import type { Deps } from '../../deps.js';
import { ExitCode, LoanctlError } from '../../errors.js';
import { formatDuration } from '../../sandbox/control/duration.js';
import { readRunning } from '../../sandbox/control/run-file.js';
import type { DataDirOptions } from './data-dir.js';
import { resolveDataDir } from './shared.js';

export async function runSandboxStatus(options: DataDirOptions, deps: Deps): Promise<void> {
  const dataDir = resolveDataDir(options.dataDir, deps);
  const info = readRunning(dataDir);
  if (!info) {
    if (options.json) deps.io.stdout.write(`${JSON.stringify({ running: false, data_dir: dataDir })}\n`);
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
  if (options.json) {
    deps.io.stdout.write(`${JSON.stringify(status)}\n`);
    return;
  }
  deps.io.stdout.write(
    [
      `Sandbox running on ${info.url ?? '(starting)'}`,
      `  pid:       ${info.pid}`,
      `  data dir:  ${dataDir}`,
      `  uptime:    ${formatDuration(uptimeMs)} (since ${info.started_at})`,
      ...(info.log_file ? [`  log file:  ${info.log_file}`] : []),
      '',
    ].join('\n'),
  );
}

/** `loanctl sandbox verify`: did the sandbox on this data dir receive what a test expects? Exit 1 with the difference when not. */
import type { Deps } from '../../deps.js';
import { LoanctlError, UsageError } from '../../errors.js';
import { parseDuration } from '../../input/duration.js';
import { flushRunningSandbox } from '../../sandbox/log/fresh.js';
import { RequestMatchError, verifyRequests } from '../../sandbox/log/requests.js';
import { openLogForReading } from '../../sandbox/log/store.js';
import { parseWholeNumber, resolveDataDir } from './run-helpers.js';

export interface SandboxVerifyOptions {
  dataDir?: string;
  method?: string;
  path?: string;
  status?: string;
  since?: string;
  count?: string;
}

export async function runSandboxVerify(options: SandboxVerifyOptions, deps: Deps): Promise<void> {
  const dataDir = resolveDataDir(options.dataDir, deps);
  const count = options.count === undefined ? undefined : parseWholeNumber(options.count, '--count', 0, 1_000_000);
  const since =
    options.since === undefined
      ? undefined
      : new Date(deps.now().getTime() - parseDuration(options.since, '--since')).toISOString();
  const match = { method: options.method, path: options.path, status: options.status, since };
  // A request answered a moment ago may still be in the running server's batch (log/fresh.ts).
  await flushRunningSandbox(dataDir);
  const db = openLogForReading(dataDir);
  if (!db) {
    if (count === 0) return void deps.io.stderr.write('No requests logged, as expected.\n');
    throw new LoanctlError(
      `No requests logged yet in ${dataDir}: nothing to verify.`,
      1,
      'Start a sandbox there and send it the requests first.',
    );
  }
  try {
    const verdict = verifyRequests(db, match, count);
    if (!verdict.ok) throw new LoanctlError(verdict.message, 1);
    deps.io.stderr.write(`${verdict.message}\n`);
  } catch (error) {
    if (error instanceof RequestMatchError) throw new UsageError(`${error.message}.`);
    throw error;
  } finally {
    db.close();
  }
}

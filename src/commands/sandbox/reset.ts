/**
 * `loanctl sandbox reset [--all]`: empties borrowers, loan requests and attachments, keeping
 * organisations, keys and products; `--all` empties everything and makes the demo organisation and
 * product again, as a first start does. Safe while a sandbox serves the data dir (one transaction).
 */
import type { Deps } from '../../deps.js';
import { ensureDemo } from '../../sandbox/admin.js';
import { resetData } from '../../sandbox/control/state.js';
import { type DataDirOptions, report, withDataDir } from './data-dir.js';

export interface SandboxResetOptions extends DataDirOptions {
  all?: boolean;
}

export async function runSandboxReset(options: SandboxResetOptions, deps: Deps): Promise<void> {
  const { removed, dataDir } = withDataDir(options, deps, (db, dir) => ({
    removed: resetData(db, options.all === true),
    dataDir: dir,
  }));
  const demo = options.all ? ensureDemo(dataDir) : undefined;
  const kept = options.all ? 'made a new demo organisation and product' : 'kept organisations, keys and products';
  const rows = Object.values(removed).reduce((sum, count) => sum + count, 0);
  report(
    deps,
    options.json,
    { removed, ...(demo && { org_id: demo.org_id, api_key: demo.api_key, product_id: demo.product_id }) },
    `Reset the sandbox in ${dataDir}: removed ${rows} rows (${removed.users} users, ${removed.loan_requests} loan requests); ${kept}.`,
  );
  if (demo && !options.json) {
    deps.io.stdout.write(
      `  API key:     ${demo.api_key}\n  org id:      ${demo.org_id}\n  product id:  ${demo.product_id}\n`,
    );
  }
}

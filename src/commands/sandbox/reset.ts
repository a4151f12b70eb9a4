/**
 * `loanctl sandbox reset [--all]`: empties borrowers, loan requests and attachments, keeping
 * organisations, keys and products; `--all` empties everything and makes the demo organisation and
 * product again, as a first start does. Safe while a sandbox serves the data dir (control/state.ts).
 * It destroys data: asks on a terminal, needs --yes elsewhere (docs/architecture.md#interaction).
 */
import type { Deps } from '../../deps.js';
import { openOutcome } from '../../output/render.js';
import { ensureDemo } from '../../sandbox/admin.js';
import { countRows, describeCounts, perTableFields, resetData } from '../../sandbox/control/state.js';
import { confirmAction } from '../common/confirm.js';
import { type DataDirOptions, withDataDir } from './data-dir.js';

export interface SandboxResetOptions extends DataDirOptions {
  all?: boolean;
  yes?: boolean;
}

export async function runSandboxReset(options: SandboxResetOptions, deps: Deps): Promise<void> {
  const output = await openOutcome(deps, [...perTableFields('removed'), 'org_id', 'api_key', 'product_id']);
  const { counts, dataDir } = withDataDir(options, deps, (db, dir) => ({ counts: countRows(db), dataDir: dir }));
  const kept = options.all ? 'makes a new demo organisation and product' : 'keeps organisations, keys and products';
  await confirmAction(deps, {
    question: `Remove ${describeCounts(counts)} from the sandbox in ${dataDir}? It ${kept}; this cannot be undone.`,
    yes: options.yes,
    example: `loanctl sandbox reset${options.all ? ' --all' : ''} --yes`,
  });
  const removed = withDataDir(options, deps, (db) => resetData(db, options.all === true));
  const demo = options.all ? ensureDemo(dataDir) : undefined;
  const rows = Object.values(removed).reduce((sum, count) => sum + count, 0);
  await output.print(
    { removed, ...(demo && { org_id: demo.org_id, api_key: demo.api_key, product_id: demo.product_id }) },
    [
      `Reset the sandbox in ${dataDir}: removed ${rows} rows (${describeCounts(removed)}); ${options.all ? 'made a new demo organisation and product' : 'kept organisations, keys and products'}.`,
      ...(demo
        ? [`  API key:     ${demo.api_key}`, `  org id:      ${demo.org_id}`, `  product id:  ${demo.product_id}`]
        : []),
    ],
  );
}

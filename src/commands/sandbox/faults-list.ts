/** `loanctl sandbox faults list`: the faults a sandbox on this data dir injects, in the order they apply. */
import type { Deps } from '../../deps.js';
import { render } from '../../output/render.js';
import { resolveOutputSettings } from '../../output/settings.js';
import { withFaults } from '../../sandbox/faults/admin.js';
import { describeFault } from './faults-shared.js';
import { resolveDataDir } from './shared.js';

export async function runSandboxFaultsList(options: { dataDir?: string }, deps: Deps): Promise<void> {
  const faults = withFaults(resolveDataDir(options.dataDir, deps), (store) => store.list());
  if (resolveOutputSettings(deps.globals, deps.env, deps.io).output !== 'table') {
    await render(faults, {}, deps);
    return;
  }
  if (faults.length === 0) deps.io.stderr.write('No faults: the sandbox answers every request as usual.\n');
  for (const fault of faults) deps.io.stdout.write(`${describeFault(fault)}\n`);
}

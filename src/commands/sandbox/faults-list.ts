/** `loanctl sandbox faults list`: the faults a sandbox on this data dir injects, in the order they apply. */
import type { Deps } from '../../deps.js';
import { render, renderOutcome } from '../../output/render.js';
import { withFaults } from '../../sandbox/faults/admin.js';
import { describeFault } from './faults-shared.js';
import { resolveDataDir } from './shared.js';

export async function runSandboxFaultsList(options: { dataDir?: string }, deps: Deps): Promise<void> {
  const faults = withFaults(resolveDataDir(options.dataDir, deps), (store) => store.list());
  if (faults.length === 0) {
    await render(faults, { empty: 'No faults: the sandbox answers every request as usual.' }, deps);
    return;
  }
  await renderOutcome(faults, faults.map(describeFault), deps);
}

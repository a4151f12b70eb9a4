/** `loanctl sandbox faults list`: the faults a sandbox on this data dir injects, in the order they apply. */
import type { Deps } from '../../deps.js';
import { openOutcome } from '../../output/render.js';
import { withFaults } from '../../sandbox/faults/admin.js';
import { describeFault } from '../../sandbox/faults/describe.js';
import { FAULT_FIELDS } from '../../sandbox/faults/store.js';
import { resolveDataDir } from './run-helpers.js';

export async function runSandboxFaultsList(options: { dataDir?: string }, deps: Deps): Promise<void> {
  const output = await openOutcome(deps, FAULT_FIELDS);
  const faults = withFaults(resolveDataDir(options.dataDir, deps), (store) => store.list());
  if (faults.length === 0) deps.io.stderr.write('No faults: the sandbox answers every request as usual.\n');
  await output.print(faults, faults.map(describeFault));
}

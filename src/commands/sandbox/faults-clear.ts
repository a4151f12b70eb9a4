/** `loanctl sandbox faults clear`: removes every fault; a running sandbox stops injecting them at once. */
import type { Deps } from '../../deps.js';
import { withFaults } from '../../sandbox/faults/admin.js';
import { resolveDataDir } from './shared.js';

export async function runSandboxFaultsClear(options: { dataDir?: string }, deps: Deps): Promise<void> {
  const removed = withFaults(resolveDataDir(options.dataDir, deps), (store) => store.clear());
  deps.io.stderr.write(removed === 1 ? 'Removed 1 fault.\n' : `Removed ${removed} faults.\n`);
}

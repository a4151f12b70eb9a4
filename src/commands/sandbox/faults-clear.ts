/**
 * `loanctl sandbox faults clear [ID...]`: removes those faults, or every fault without ids; a
 * running sandbox stops injecting them from its next request.
 */
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { withFaults } from '../../sandbox/faults/admin.js';
import { resolveDataDir } from './shared.js';

export async function runSandboxFaultsClear(ids: readonly string[], options: { dataDir?: string }, deps: Deps) {
  const dataDir = resolveDataDir(options.dataDir, deps);
  if (ids.length === 0) {
    const removed = withFaults(dataDir, (store) => store.clear());
    deps.io.stderr.write(removed === 1 ? 'Removed 1 fault.\n' : `Removed ${removed} faults.\n`);
    return;
  }
  const wanted = [...new Set(ids.map(parseFaultId))];
  const { missing } = withFaults(dataDir, (store) => store.remove(wanted));
  if (missing.length > 0) {
    throw new UsageError(
      `No fault ${missing.map((id) => `#${id}`).join(', ')} in ${dataDir}; nothing was removed.`,
      'See the ids with: loanctl sandbox faults list',
    );
  }
  deps.io.stderr.write(
    `Removed ${wanted.length === 1 ? 'fault' : 'faults'} ${wanted.map((id) => `#${id}`).join(', ')}.\n`,
  );
}

/** `2` (or `#2`, as `faults list` shows it, when quoted: unquoted, a shell takes `#2` for a comment). */
function parseFaultId(text: string): number {
  const id = /^\s*#?(\d+)\s*$/.exec(text)?.[1];
  if (id === undefined || !Number.isSafeInteger(Number(id))) {
    throw new UsageError(`A fault id is a number such as 2 (\`faults list\` shows #2); got "${text}".`);
  }
  return Number(id);
}

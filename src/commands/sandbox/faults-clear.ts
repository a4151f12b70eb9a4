/**
 * `loanctl sandbox faults clear [ID...]`: removes those faults, or every fault without ids; a
 * running sandbox stops injecting them from its next request. Prints the faults it removed
 * through -o like `faults list` (a table says it on stderr only).
 */
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { openOutcome } from '../../output/render.js';
import { withFaults } from '../../sandbox/faults/admin.js';
import { FAULT_FIELDS, type FaultRow, type FaultsStore } from '../../sandbox/faults/store.js';
import { resolveDataDir } from './run-helpers.js';

export async function runSandboxFaultsClear(ids: readonly string[], options: { dataDir?: string }, deps: Deps) {
  const dataDir = resolveDataDir(options.dataDir, deps);
  const wanted = ids.length === 0 ? undefined : [...new Set(ids.map(parseFaultId))];
  // Opened before anything is removed, so that a --fields naming none of its fields removes nothing.
  const output = await openOutcome(deps, FAULT_FIELDS);
  const removed = withFaults(dataDir, (store) =>
    wanted === undefined ? removeAll(store) : remove(store, wanted, dataDir),
  );
  deps.io.stderr.write(wanted === undefined ? `Removed ${plural(removed.length)}.\n` : `Removed ${listed(wanted)}.\n`);
  await output.print(removed, []);
}

function removeAll(store: FaultsStore): FaultRow[] {
  const faults = store.list();
  store.clear();
  return faults;
}

/** Removes the faults `wanted`, all or none (one transaction: withFaults). */
function remove(store: FaultsStore, wanted: readonly number[], dataDir: string): FaultRow[] {
  const faults = store.list().filter((fault) => wanted.includes(fault.id));
  const { missing } = store.remove(wanted);
  if (missing.length > 0) {
    throw new UsageError(
      `No fault ${missing.map((id) => `#${id}`).join(', ')} in ${dataDir}; nothing was removed.`,
      'See the ids with: loanctl sandbox faults list',
    );
  }
  return faults;
}

/** `1 fault`, `0 faults`. */
function plural(count: number): string {
  return count === 1 ? '1 fault' : `${count} faults`;
}

/** `fault #2`, `faults #2, #3`. */
function listed(ids: readonly number[]): string {
  return `${ids.length === 1 ? 'fault' : 'faults'} ${ids.map((id) => `#${id}`).join(', ')}`;
}

/** `2` (or `#2`, as `faults list` shows it, when quoted: unquoted, a shell takes `#2` for a comment). */
function parseFaultId(text: string): number {
  const id = /^\s*#?(\d+)\s*$/.exec(text)?.[1];
  if (id === undefined || !Number.isSafeInteger(Number(id))) {
    throw new UsageError(`A fault id is a number such as 2 (\`faults list\` shows #2); got "${text}".`);
  }
  return Number(id);
}

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { completionScript, type Shell } from '../../completion/index.js';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';

export interface CompletionOptions {
  shell: Shell;
  /** What the script runs for dynamic values instead of this loanctl's own paths (`npm run completions`: `loanctl`). */
  invoke?: string;
}

/** Prints the completion script of `options.shell` for the tree rooted at `program`. */
export function runCompletion(options: CompletionOptions, program: Command, deps: Pick<Deps, 'io'>): void {
  const invoke = options.invoke === undefined ? thisLoanctl(process.execPath, process.argv[1]) : [options.invoke];
  deps.io.stdout.write(completionScript(options.shell, program, invoke));
}

/**
 * The absolute paths that run this loanctl again: the Node running it and its script. A shell
 * completing names runs them, so completion works where `loanctl` is not on PATH (an npx or a
 * local install, a path typed in full). A single executable (no script of its own) is one path.
 */
export function thisLoanctl(node: string, script: string | undefined): string[] {
  if (script === undefined || resolve(script) === node) return [node];
  return [node, resolve(script)];
}

export interface CompleteOptions {
  what: string;
}

const SETS = {
  profiles: async (deps: Pick<Deps, 'config'>) => (await deps.config()).names(),
  /** Of the default data dir (`sandbox restore NAME` there; a --data-dir on the line is not read). */
  snapshots: async (deps: Pick<Deps, 'env'>) => {
    const [{ listSnapshots }, { defaultDataDir }] = await Promise.all([
      import('../../sandbox/control/state.js'),
      import('../../sandbox/paths.js'),
    ]);
    return listSnapshots(defaultDataDir(deps.env)).map((entry) => entry.name);
  },
};

/**
 * `__complete profiles|snapshots`: the names, one a line. Runs on every Tab where they complete,
 * so it reads the config file or the snapshot directory and nothing else; one it cannot read
 * completes nothing rather than failing.
 */
export async function runComplete(options: CompleteOptions, deps: Pick<Deps, 'io' | 'config' | 'env'>): Promise<void> {
  if (!Object.hasOwn(SETS, options.what)) {
    throw new UsageError(`__complete: unknown set "${options.what}" (known: ${Object.keys(SETS).join(', ')}).`);
  }
  let names: string[];
  try {
    names = await SETS[options.what as keyof typeof SETS](deps);
  } catch {
    return;
  }
  for (const name of names) deps.io.stdout.write(`${name}\n`);
}

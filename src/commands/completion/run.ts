import { resolve } from 'node:path';
import type { Command } from 'commander';
import { completionScript, type Shell } from '../../completion/index.js';
import { DYNAMIC_SETS, type DynamicSet } from '../../completion/spec.js';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';

export interface CompletionOptions {
  shell: Shell;
  /** What the script runs for dynamic values instead of this loanctl's own paths (`npm run completions`: `loanctl`). */
  invoke?: string;
}

/** Prints the completion script of `options.shell` for the whole tree rooted at `program`. */
export async function runCompletion(options: CompletionOptions, program: Command, deps: Deps): Promise<void> {
  // The run built only the root and this command: the script completes every noun's verbs.
  const { addEveryVerb } = await import('../../program.js');
  await addEveryVerb(program, deps);
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
  /** The `--data-dir` of the line being completed (snapshots and faults): else the default one. */
  dataDir?: string;
}

type CompleteDeps = Pick<Deps, 'io' | 'config' | 'env'>;

/** A candidate, or a candidate, a tab and what it is (the shells that show descriptions show it). */
const SETS: Record<DynamicSet, (deps: CompleteDeps, dataDir: string | undefined) => Promise<string[]>> = {
  profiles: async (deps) => (await deps.config()).names(),
  snapshots: async (deps, dataDir) => {
    const [{ listSnapshots }, { dataDirFrom }] = await Promise.all([
      import('../../sandbox/control/state.js'),
      import('../../sandbox/paths.js'),
    ]);
    return listSnapshots(dataDirFrom(dataDir, deps.env)).map((entry) => entry.name);
  },
  faults: async (deps, dataDir) => {
    const [{ readFaults }, { whatFaultDoes }, { dataDirFrom }] = await Promise.all([
      import('../../sandbox/faults/admin.js'),
      import('../../sandbox/faults/describe.js'),
      import('../../sandbox/paths.js'),
    ]);
    // A path glob may hold a tab or a line break: it would split the line.
    return readFaults(dataDirFrom(dataDir, deps.env)).map(
      (fault) => `${fault.id}\t${whatFaultDoes(fault).replace(/[\t\r\n]+/g, ' ')}`,
    );
  },
};

/**
 * `__complete profiles|snapshots|faults [--data-dir DIR]`: the candidates, one a line. Runs on
 * every Tab where they complete, so it reads the config file, the snapshot directory or the
 * sandbox database (read only) and nothing else; one it cannot read completes nothing rather
 * than failing.
 */
export async function runComplete(options: CompleteOptions, deps: CompleteDeps): Promise<void> {
  if (!(DYNAMIC_SETS as readonly string[]).includes(options.what)) {
    throw new UsageError(`__complete: unknown set "${options.what}" (known: ${DYNAMIC_SETS.join(', ')}).`);
  }
  let lines: string[];
  try {
    lines = await SETS[options.what as DynamicSet](deps, options.dataDir);
  } catch {
    return;
  }
  for (const line of lines) if (oneLine(line)) deps.io.stdout.write(`${line}\n`);
}

/**
 * Whether a candidate reads back as the one it is: a name with a line break or another control
 * character (a snapshot file anyone can name) would arrive in the shell as two names, or part of
 * one. The tab that starts a description is the only one allowed.
 */
function oneLine(line: string): boolean {
  const [name, ...description] = line.split('\t');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  const control = /[\u0000-\u001f\u007f]/;
  return name !== '' && description.length <= 1 && !control.test(name as string) && !control.test(description.join(''));
}

import type { Command } from 'commander';
import { completionScript, type Shell } from '../../completion/index.js';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';

export interface CompletionOptions {
  shell: Shell;
}

/** Prints the completion script of `options.shell` for the tree rooted at `program`. */
export function runCompletion(options: CompletionOptions, program: Command, deps: Pick<Deps, 'io'>): void {
  deps.io.stdout.write(completionScript(options.shell, program));
}

export interface CompleteOptions {
  what: string;
}

/**
 * `__complete profiles`: the profile names, one a line. Runs on every Tab after `--profile`, so it
 * reads the config file and nothing else; an unreadable file completes nothing rather than failing.
 */
export async function runComplete(options: CompleteOptions, deps: Pick<Deps, 'io' | 'config'>): Promise<void> {
  if (options.what !== 'profiles') throw new UsageError(`__complete: unknown set "${options.what}" (known: profiles).`);
  let names: string[];
  try {
    names = (await deps.config()).names();
  } catch {
    return;
  }
  for (const name of names) deps.io.stdout.write(`${name}\n`);
}

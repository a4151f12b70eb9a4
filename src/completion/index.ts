/**
 * Shell completion scripts generated from the commander tree (`loanctl completion bash|zsh|fish`,
 * and `npm run completions`, which checks them in under completions/).
 */
import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import type { Shell } from './shells.js';
import { completionSpec } from './spec.js';
import { zshScript } from './zsh.js';

export { COMPLETION_FILES, SHELLS, type Shell } from './shells.js';

/**
 * The completion script of `shell` for the program `program` (the root of `buildProgram`);
 * `invoke`: the words the script runs for dynamic values (default: the program's name, on PATH).
 */
export function completionScript(shell: Shell, program: Command, invoke?: readonly string[]): string {
  const spec = completionSpec(program, invoke);
  switch (shell) {
    case 'bash':
      return bashScript(spec);
    case 'zsh':
      return zshScript(spec);
    case 'fish':
      return fishScript(spec);
  }
}

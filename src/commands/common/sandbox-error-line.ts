/**
 * What a running sandbox (of `sandbox start` or the demo) writes when a request fails in a way
 * its routes did not expect: one line, as every error of loanctl (docs/architecture.md#exit-codes-and-errors); the stack only
 * with `--debug` or `LOANCTL_DEBUG=1`, where it helps whoever is fixing the sandbox.
 */
import type { Deps } from '../../deps.js';
import { SandboxTrouble } from '../../sandbox/trouble.js';

export function sandboxErrorLine(error: unknown, deps: Pick<Deps, 'globals' | 'env'>): string {
  // A failure the sandbox names (a full disk, a count of repeats) is its own line already.
  if (error instanceof SandboxTrouble) return `sandbox: ${error.message}\n`;
  const debug = deps.globals.debug === true || deps.env.LOANCTL_DEBUG === '1';
  if (debug && error instanceof Error && error.stack) return `sandbox: unexpected error: ${error.stack}\n`;
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = message.split('\n')[0] ?? '';
  return `sandbox: unexpected error: ${firstLine}${debug ? '' : ' (run again with --debug for details)'}\n`;
}

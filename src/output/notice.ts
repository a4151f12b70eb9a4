import type { Deps } from '../deps.js';

/** A notice for the operator on stderr (never stdout, which carries only data). */
export function notice(deps: Deps, line: string): void {
  deps.io.stderr.write(`${line}\n`);
}

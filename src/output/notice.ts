import type { Io } from '../basics.js';

/** A notice for the operator on stderr (never stdout, which carries only data). */
export function notice(deps: { io: Io }, line: string): void {
  deps.io.stderr.write(`${line}\n`);
}

/**
 * Where loanctl keeps what it remembers between runs (bulk journals, the last approval terms of
 * each product): `$LOANCTL_STATE_DIR`, else `$XDG_STATE_HOME/loanctl`, else
 * `~/.local/state/loanctl`. Deleting it forgets; nothing in it is a setting.
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { Env } from '../basics.js';

export function stateDir(env: Env): string {
  if (env.LOANCTL_STATE_DIR) return env.LOANCTL_STATE_DIR;
  const xdg = env.XDG_STATE_HOME;
  return xdg && isAbsolute(xdg) ? join(xdg, 'loanctl') : join(env.HOME || homedir(), '.local', 'state', 'loanctl');
}

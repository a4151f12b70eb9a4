import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** `$XDG_DATA_HOME/loanctl/sandbox`, else `~/.local/share/loanctl/sandbox` (a relative XDG path is ignored, per the spec). */
export function defaultDataDir(env: Record<string, string | undefined>): string {
  const xdg = env.XDG_DATA_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.local', 'share');
  return join(base, 'loanctl', 'sandbox');
}

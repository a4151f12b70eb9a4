import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/**
 * `$XDG_DATA_HOME/loanctl/sandbox`, else `~/.local/share/loanctl/sandbox` (a relative XDG path is
 * ignored, per the spec); `sandbox proxy` keeps its request log beside it, in `proxy`.
 */
export function defaultDataDir(env: Record<string, string | undefined>, name: 'sandbox' | 'proxy' = 'sandbox'): string {
  const xdg = env.XDG_DATA_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.local', 'share');
  return join(base, 'loanctl', name);
}

/** The data dir a `--data-dir` value names (relative to the working directory), else the default one. */
export function dataDirFrom(dataDir: string | undefined, env: Record<string, string | undefined>): string {
  return dataDir === undefined ? defaultDataDir(env) : resolve(dataDir);
}

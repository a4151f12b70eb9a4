/**
 * `loanctl sandbox open`: the sandbox's lender dashboard in the default browser where there is
 * one (xdg-open with a display, open on macOS, start on Windows); the URL is printed on stdout
 * either way, so a script or a remote shell can use it. The sandbox is the one `--base-url` or
 * LOANCTL_BASE_URL names, else the "sandbox" profile's (written by `sandbox start`), else the
 * default address; it must answer before a browser is sent to it.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Deps, Env } from '../../deps.js';
import { NetworkError } from '../../errors.js';
import { SANDBOX_PROFILE } from '../common/sandbox-listening.js';
import { DEFAULT_SANDBOX_URL } from '../common/sandbox-url.js';

const CHECK_TIMEOUT_MS = 3000;

export async function runSandboxOpen(deps: Deps): Promise<void> {
  const base = await sandboxUrl(deps);
  const url = `${base}/dashboard`;
  await checkDashboard(url, base);
  deps.io.stdout.write(`${url}\n`);
  const opener = browserOpener(deps.env, process.platform);
  if (opener && (await launched(opener.command, [...opener.args, url], deps.env))) {
    deps.io.stderr.write('Opened the dashboard in your browser; sign in with the API key sandbox start printed.\n');
  } else {
    deps.io.stderr.write('No browser to open here: open the URL above, and sign in with the sandbox API key.\n');
  }
}

async function sandboxUrl(deps: Deps): Promise<string> {
  const settings = await deps.settings();
  if (settings.baseUrl !== undefined && settings.baseUrlSource !== 'profile') return settings.baseUrl;
  const profile = (await deps.config()).get(SANDBOX_PROFILE);
  return (profile?.baseUrl ?? settings.baseUrl ?? DEFAULT_SANDBOX_URL).replace(/\/+$/, '');
}

async function checkDashboard(url: string, base: string): Promise<void> {
  const reply = await fetch(`${url}/sign-in`, {
    signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    redirect: 'manual',
  }).catch(() => undefined);
  if (!reply) {
    throw new NetworkError(`No sandbox answers at ${base}.`, 'Start one with: loanctl sandbox start');
  }
  await reply.body?.cancel();
  if (reply.status !== 200) {
    throw new NetworkError(
      `${base} answers, but has no dashboard (HTTP ${reply.status} for /dashboard/sign-in).`,
      'Is it a loanctl sandbox? Start one with: loanctl sandbox start',
    );
  }
}

interface Opener {
  command: string;
  args: string[];
}

/** How this system opens a URL in the default browser; undefined where there is no browser to open. */
export function browserOpener(env: Env, platform: NodeJS.Platform): Opener | undefined {
  if (platform === 'darwin') return { command: 'open', args: [] };
  // `start` is a cmd.exe built-in; its first quoted argument is a window title.
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""'] };
  const display = Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
  return display && onPath('xdg-open', env) ? { command: 'xdg-open', args: [] } : undefined;
}

function onPath(command: string, env: Env): boolean {
  return (env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, command)));
}

/** Starts the opener detached (the browser outlives this command); false when it cannot start. */
function launched(command: string, args: string[], env: Env): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: env as NodeJS.ProcessEnv, detached: true, stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

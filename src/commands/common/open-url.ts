/**
 * Opening a URL in the default browser (`sandbox open`, `loan open`): xdg-open where there is a
 * display, open on macOS, start on Windows. Where there is none, or it cannot start, the caller
 * prints the URL instead.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Env } from '../../basics.js';
import { isLoopbackHost } from '../../config/base-url.js';
import { dashboardUrlFor } from '../../config/dashboard-url.js';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';

/** Whether the system's opener was started with `url` (it runs on, detached, after loanctl exits). */
export async function openInBrowser(url: string, env: Env, platform: NodeJS.Platform = process.platform) {
  const opener = browserOpener(env, platform);
  return opener !== undefined && (await launched(opener.command, [...opener.args, url], env));
}

interface Opener {
  command: string;
  args: string[];
}

/** How this system opens a URL in the default browser; undefined where there is no browser to open. */
function browserOpener(env: Env, platform: NodeJS.Platform): Opener | undefined {
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

/**
 * `loan open ID` and `loan show ID --web`: the loan request's page in the lender dashboard of the
 * profile's `dashboard-url` template, else in the sandbox's own dashboard when the base URL is a
 * sandbox on this machine. Opened in the browser where there is one, else its URL on stdout.
 */
export async function openLoanPage(id: number, deps: Deps): Promise<void> {
  const url = await loanPageUrl(id, deps);
  if (await openInBrowser(url, deps.env)) {
    deps.io.stderr.write(`Opened loan request ${id} in your browser: ${url}\n`);
    return;
  }
  deps.io.stdout.write(`${url}\n`);
  deps.io.stderr.write('No browser to open here: open the URL above.\n');
}

async function loanPageUrl(id: number, deps: Deps): Promise<string> {
  const settings = await deps.settings();
  if (settings.dashboardUrl !== undefined) return dashboardUrlFor(settings.dashboardUrl, id);
  const base = settings.baseUrl;
  if (base !== undefined && isLoopbackHost(new URL(base).hostname)) return `${base}/dashboard/loans/${id}`;
  const name = settings.profile?.name ?? 'NAME';
  throw new UsageError(
    base === undefined
      ? 'No profile or base URL: no dashboard to open.'
      : `No dashboard is known for ${base}: only a sandbox on this machine has one of its own.`,
    `Tell loanctl your lender dashboard's loan page: loanctl profile set ${name} --dashboard-url "https://…/loans/{id}"`,
  );
}

/**
 * Opening a URL in the default browser (`sandbox open`, `loan open`): xdg-open where there is a
 * display, open on macOS, the URL protocol handler on Windows. Where there is none, or it cannot
 * start, the caller prints the URL instead. The opener is started directly, never through a
 * shell (cmd.exe's `start` reads `&` as "run the next command"), with the URL as one argument,
 * written back by the URL parser and starting with `https:` or `http:`: it cannot be read as an
 * option. (None of these openers takes a `--`: xdg-open refuses it as an unknown option.)
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Env } from '../../basics.js';
import { isLoopbackHost } from '../../config/base-url.js';
import { checkDashboardUrl, checkPageUrl, dashboardUrlFor } from '../../config/dashboard-url.js';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';

/** Whether the system's opener was started with `url` (it runs on, detached, after loanctl exits). */
export async function openInBrowser(url: string, env: Env, platform: NodeJS.Platform = process.platform) {
  const page = checkPageUrl(url, 'The page to open');
  const opener = browserOpener(env, platform);
  return opener !== undefined && (await launched(opener.command, [...opener.args, page], env));
}

interface Opener {
  command: string;
  args: string[];
}

/** How this system opens a URL in the default browser; undefined where there is no browser to open. */
export function browserOpener(env: Env, platform: NodeJS.Platform): Opener | undefined {
  if (platform === 'darwin') return { command: 'open', args: [] };
  // What `start URL` ends in, without cmd.exe: the shell's handler of the URL's protocol.
  if (platform === 'win32') return { command: 'rundll32', args: ['url.dll,FileProtocolHandler'] };
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
 * sandbox on this machine. Opened in the browser where there is one, else its URL on `urlTo`
 * (stdout, unless stdout is kept for a record, as `loan review -o json` keeps it).
 */
export async function openLoanPage(id: number, deps: Deps, urlTo = deps.io.stdout): Promise<void> {
  const url = await loanPageUrl(id, deps);
  if (await openInBrowser(url, deps.env)) {
    deps.io.stderr.write(`Opened loan request ${id} in your browser: ${url}\n`);
    return;
  }
  urlTo.write(`${url}\n`);
  deps.io.stderr.write('No browser to open here: open the URL above.\n');
}

async function loanPageUrl(id: number, deps: Deps): Promise<string> {
  const settings = await deps.settings();
  if (settings.dashboardUrl !== undefined) {
    // Checked again here: the config file may have been edited by hand (or by someone else).
    const where = `The dashboardUrl of profile "${settings.profile?.name ?? '?'}" in the config file`;
    return dashboardUrlFor(checkDashboardUrl(settings.dashboardUrl, where), id);
  }
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

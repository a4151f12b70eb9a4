/**
 * `loanctl sandbox open`: the sandbox's lender dashboard in the default browser where there is
 * one (xdg-open with a display, open on macOS, start on Windows); the URL is printed on stdout
 * either way, so a script or a remote shell can use it. The sandbox is the one `--base-url` or
 * LOANCTL_BASE_URL names, else the "sandbox" profile's (written by `sandbox start`), else the
 * default address; it must answer before a browser is sent to it.
 */
import type { Deps } from '../../deps.js';
import { NetworkError } from '../../errors.js';
import { openInBrowser } from '../common/open-url.js';
import { SANDBOX_PROFILE } from '../common/sandbox-listening.js';
import { DEFAULT_SANDBOX_URL } from '../common/sandbox-url.js';

const CHECK_TIMEOUT_MS = 3000;

export async function runSandboxOpen(deps: Deps): Promise<void> {
  const base = await sandboxUrl(deps);
  const url = `${base}/dashboard`;
  await checkDashboard(url, base);
  deps.io.stdout.write(`${url}\n`);
  if (await openInBrowser(url, deps.env)) {
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

/** The demo's own sandbox: started on a free loopback port, and the environment its steps run in. */
import type { Env } from '../../basics.js';
import type { Deps } from '../../deps.js';
import { ExitCode, LoanctlError } from '../../errors.js';
import { type RunningSandbox, startSandboxServer } from '../../sandbox/server.js';
import { sandboxErrorLine } from '../common/sandbox-error-line.js';

export async function startSandbox(dataDir: string, deps: Deps): Promise<RunningSandbox> {
  try {
    return await startSandboxServer({
      dataDir,
      host: '127.0.0.1',
      port: 0,
      onError: (error) => deps.io.stderr.write(sandboxErrorLine(error, deps)),
    });
  } catch (error) {
    throw new LoanctlError(
      `Could not start the demo's sandbox on 127.0.0.1: ${error instanceof Error ? error.message : error}.`,
      ExitCode.api,
      'Check that this machine allows listening on loopback, then try again.',
    );
  }
}

/**
 * The demo's own environment: the machine's (colour, TERM, proxies…) without any LOANCTL_*
 * setting of the user's, an empty config dir of its own so no profile of the user's is read, and
 * the sandbox's URL, key and product.
 */
export function sandboxEnv(env: Env, configDir: string, url: string, apiKey: string, productId: number): Env {
  const clean: Env = {};
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('LOANCTL_') || name === 'LOANCTL_DEBUG') clean[name] = value;
  }
  return {
    ...clean,
    LOANCTL_CONFIG_DIR: configDir,
    LOANCTL_BASE_URL: url,
    LOANCTL_API_KEY: apiKey,
    LOANCTL_PRODUCT_ID: String(productId),
  };
}

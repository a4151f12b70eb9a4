/**
 * What `sandbox start` does once the server listens, before it prints its banner: write (or
 * refresh) the CLI profile `sandbox` pointing at this server, so `loanctl --profile sandbox …`
 * works at once. `--no-profile` skips it. It becomes the current profile only when there is none,
 * so starting a sandbox never silently redirects commands meant for a real lender's API.
 */
import type { Deps } from '../../deps.js';

export interface SandboxListening {
  url: string;
  api_key: string;
  org_id: number;
  product_id: number;
  dataDir: string;
}

/**
 * Start options this seam may read (the flags of `sandbox start`, as commander parsed them), and
 * `keepExisting` (demo --keep): write a new profile instead of replacing an existing `sandbox`.
 */
export type SandboxStartFlags = Record<string, unknown>;

export const SANDBOX_PROFILE = 'sandbox';

/** The profile written, for the banner to suggest; undefined when none was (`--no-profile`, or an error). */
export interface WrittenProfile {
  name: string;
  current: boolean;
}

export async function onSandboxListening(
  info: SandboxListening,
  flags: SandboxStartFlags,
  deps: Deps,
): Promise<WrittenProfile | undefined> {
  if (flags.profile === false) return undefined;
  const warn = (line: string) => deps.io.stderr.write(`loanctl: warning: ${line}\n`);
  try {
    const { openProfileStore, writeProfile } = await import('../../config/store.js');
    // The sandbox's key goes to the file (it opens only this sandbox, which prints it anyway); a key
    // an earlier `profile add sandbox` put in the OS keyring is deleted once the file is written.
    const store = openProfileStore({ env: deps.env, warn });
    const name = flags.keepExisting === true ? freeName(store.names()) : SANDBOX_PROFILE;
    const inKeyring = store.get(name)?.keyringAccount;
    const written = writeProfile(
      name,
      { baseUrl: profileUrl(info.url), apiKey: info.api_key, productId: info.product_id, orgId: info.org_id },
      { env: deps.env, makeCurrentIfNone: true, warn },
    );
    if (inKeyring !== undefined) {
      const { forget } = await import('../../config/key-storage.js');
      await forget(name, inKeyring, warn);
    }
    const use = written.current ? 'it is the current profile' : `use it with --profile ${name}`;
    const kept = name === SANDBOX_PROFILE ? '' : ` Your "${SANDBOX_PROFILE}" profile is kept as it was.`;
    deps.io.stderr.write(`Profile "${name}" points at this sandbox (${use}).${kept}\n`);
    return { name, current: written.current };
  } catch (error) {
    // The sandbox itself works without a profile: say why there is none, and keep serving.
    warn(`could not write the "${SANDBOX_PROFILE}" profile: ${error instanceof Error ? error.message : error}`);
    return undefined;
  }
}

/** `sandbox`, or else the first of `sandbox-2`, `sandbox-3` … that no profile has (`keepExisting`). */
function freeName(taken: string[]): string {
  const names = new Set(taken);
  for (let n = 1; ; n++) {
    const name = n === 1 ? SANDBOX_PROFILE : `${SANDBOX_PROFILE}-${n}`;
    if (!names.has(name)) return name;
  }
}

/** A server listening on every address is reached through loopback, the only plain-http host allowed. */
function profileUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.hostname === '0.0.0.0') parsed.hostname = '127.0.0.1';
  if (parsed.hostname === '[::]') parsed.hostname = '[::1]';
  return parsed.origin;
}

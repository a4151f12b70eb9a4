/**
 * The seam for what `sandbox start` does once the server listens, before it prints its banner.
 * Today: nothing. Planned: write a CLI profile named `sandbox` pointing at this server (skipped
 * with `--no-profile`); add that here, and its flag in index.ts, without touching start.ts.
 */
import type { Deps } from '../../deps.js';

export interface SandboxListening {
  url: string;
  api_key: string;
  org_id: number;
  product_id: number;
  dataDir: string;
}

/** Start options this seam may read (the flags of `sandbox start`, as commander parsed them). */
export type SandboxStartFlags = Record<string, unknown>;

export async function onSandboxListening(
  _info: SandboxListening,
  _flags: SandboxStartFlags,
  _deps: Deps,
): Promise<void> {}

/** `loanctl sandbox org create`: a new organisation and its API key. */
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { openOutcome } from '../../output/render.js';
import { createOrganisation, SandboxAdminError } from '../../sandbox/admin.js';
import { resolveDataDir } from './run-helpers.js';

export interface SandboxOrgCreateOptions {
  name: string;
  dataDir?: string;
}

export async function runSandboxOrgCreate(options: SandboxOrgCreateOptions, deps: Deps): Promise<void> {
  const dataDir = resolveDataDir(options.dataDir, deps);
  // Opened first: the key is shown only once, so a --fields mistake must stop before it is made.
  const output = await openOutcome(deps, ['org_id', 'api_key']);
  let created: { org_id: number; api_key: string };
  try {
    created = createOrganisation(dataDir, options.name);
  } catch (error) {
    if (error instanceof SandboxAdminError) throw new UsageError(`Cannot create the organisation: ${error.message}.`);
    throw error;
  }
  deps.io.stderr.write(`Created organisation "${options.name.trim()}" in ${dataDir}.\n`);
  await output.print(created, [`org_id:  ${created.org_id}`, `api_key: ${created.api_key}`]);
  deps.io.stderr.write(
    'The API key is shown only this once (the sandbox keeps only its hash). ' +
      `Next: loanctl sandbox product create --org ${created.org_id} --name "My product"\n`,
  );
}

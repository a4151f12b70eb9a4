/** `loanctl sandbox product create`: a new loan product of an organisation. */
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { openOutcome } from '../../output/render.js';
import { createProduct, SandboxAdminError } from '../../sandbox/admin.js';
import { parseWholeNumber, resolveDataDir } from './run-helpers.js';

export interface SandboxProductCreateOptions {
  org: string;
  name: string;
  dataDir?: string;
}

export async function runSandboxProductCreate(options: SandboxProductCreateOptions, deps: Deps): Promise<void> {
  const orgId = parseWholeNumber(options.org, '--org', 1, Number.MAX_SAFE_INTEGER);
  const dataDir = resolveDataDir(options.dataDir, deps);
  const output = await openOutcome(deps, ['product_id', 'slug']);
  let created: { product_id: number; slug: string };
  try {
    created = createProduct(dataDir, orgId, options.name);
  } catch (error) {
    if (error instanceof SandboxAdminError) {
      throw new UsageError(`Cannot create the product: ${error.message} (data dir ${dataDir}).`);
    }
    throw error;
  }
  deps.io.stderr.write(`Created product "${options.name.trim()}" for organisation ${orgId}.\n`);
  await output.print(created, [`product_id: ${created.product_id}`, `slug:       ${created.slug}`]);
}

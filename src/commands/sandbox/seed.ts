/** `loanctl sandbox seed FILE`: create data from a fixture file (control/seed-file.ts, docs/sandbox.md#seed-files). */
import { resolve } from 'node:path';
import type { Deps } from '../../deps.js';
import { LoanctlError, UsageError } from '../../errors.js';
import { openOutcome } from '../../output/render.js';
import { loadSeedFile, SeedError } from '../../sandbox/control/seed-file.js';
import { runSeed } from '../../sandbox/control/seed-run.js';
import type { DataDirOptions } from './data-dir.js';
import { resolveDataDir } from './run-helpers.js';

export async function runSandboxSeed(file: string, options: DataDirOptions, deps: Deps): Promise<void> {
  const dataDir = resolveDataDir(options.dataDir, deps);
  const output = await openOutcome(deps, ['steps', 'org_id', 'product_id']);
  let steps: ReturnType<typeof loadSeedFile>;
  try {
    steps = loadSeedFile(resolve(file));
  } catch (error) {
    if (error instanceof SeedError) throw new UsageError(`Cannot seed: ${error.message}.`);
    throw error;
  }
  let summary: Awaited<ReturnType<typeof runSeed>>;
  try {
    summary = await runSeed(dataDir, steps);
  } catch (error) {
    // The calls before the failing one stay made, as a client's would.
    if (error instanceof SeedError) {
      throw new LoanctlError(`Seeding stopped at ${error.message}.`, 1, 'The steps before it were applied.');
    }
    throw error;
  }
  await output.print(
    summary,
    summary.steps.map((step) => `${step.name.padEnd(20)} ${step.op.padEnd(22)} ${step.calls}`),
  );
  deps.io.stderr.write(`Seeded ${dataDir} (organisation ${summary.org_id}, product ${summary.product_id}).\n`);
}

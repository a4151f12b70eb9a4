/**
 * `npm run test:load` (vitest.load.config.ts; CI runs it after `npm test`): 64 concurrent clients
 * for 30 seconds of mixed reads and writes on the real sandbox process (issue #6, "The sandbox
 * under faults"). No reply the spec does not allow, no transport failure, and the counts in the
 * database equal the successes the clients saw. The mix and the checks are in
 * test/hardening/mixed-load.ts; `npm test` runs the same for 3 seconds.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cleanEnv, removeTemps, type SandboxProc, startSandbox, temp } from '../hardening/helpers.js';
import { expectSound, runMixedLoad } from '../hardening/mixed-load.js';

let sandbox: SandboxProc;
let dataDir: string;

beforeAll(async () => {
  dataDir = temp('loanctl-load-');
  sandbox = await startSandbox(dataDir, cleanEnv());
});
afterAll(async () => {
  await sandbox?.kill9();
  removeTemps();
});

it('64 clients, 30 s of mixed reads and writes: only allowed replies, and rows = successes', async () => {
  const { url, api_key: key, product_id: product } = sandbox.line;
  const report = await runMixedLoad({ url, key, product, dataDir }, { clients: 64, durationMs: 30_000 });
  process.stdout.write(`mixed load: ${report.operations} operations ${JSON.stringify(report.byKind)}\n`);
  expectSound(report, dataDir);
  expect(report.operations).toBeGreaterThan(640);
  expect(sandbox.stderr()).toBe('');
}, 120_000);

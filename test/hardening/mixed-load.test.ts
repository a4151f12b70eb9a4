/**
 * The short variant of the mixed load (issue #6): 64 concurrent clients for 3 seconds of mixed
 * reads and writes on the real sandbox process — no reply the spec does not allow, and the counts
 * in the database equal the successes the clients saw. The 30-second run is
 * test/load/mixed-load.load.ts (`npm run test:load`, also run by CI).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cleanEnv, removeTemps, type SandboxProc, startSandbox, temp } from './helpers.js';
import { expectSound, runMixedLoad } from './mixed-load.js';

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

it('64 clients, 3 s of mixed reads and writes: only allowed replies, and rows = successes', async () => {
  const { url, api_key: key, product_id: product } = sandbox.line;
  const report = await runMixedLoad({ url, key, product, dataDir }, { clients: 64, durationMs: 3_000 });
  expectSound(report, dataDir);
  expect(report.operations).toBeGreaterThan(64);
  expect(sandbox.stderr()).toBe('');
}, 60_000);

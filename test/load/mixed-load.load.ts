/**
 * `npm run test:load` (vitest.load.config.ts; CI runs it after `npm test`): 64 concurrent clients
 * for 30 seconds of mixed reads and writes on the real sandbox process. No reply the spec does not allow, no transport failure, and the counts in the
 * database equal the successes the clients saw. The mix and the checks are in
 * test/hardening/mixed-load.ts; `npm test` runs the same for 3 seconds.
 */
import { mixedLoadTest } from '../hardening/mixed-load.js';

mixedLoadTest({ clients: 64, durationMs: 30_000, minOperations: 640, timeoutMs: 120_000, print: true });

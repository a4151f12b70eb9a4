/**
 * The short variant of the mixed load: 64 concurrent clients for 3 seconds of mixed
 * reads and writes on the real sandbox process — no reply the spec does not allow, and the counts
 * in the database equal the successes the clients saw. The 30-second run is
 * test/load/mixed-load.load.ts (`npm run test:load`, also run by CI).
 */
import { mixedLoadTest } from './mixed-load.js';

mixedLoadTest({ clients: 64, durationMs: 3_000, minOperations: 64, timeoutMs: 60_000 });

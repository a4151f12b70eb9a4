import { defineConfig } from 'vitest/config';
import { OLDEST_NODE_TESTS } from './vitest.config.js';

/**
 * `npm run test:oldest-node`: the built CLI and the sandbox on the oldest Node the package supports
 * (package.json's engines). That Node comes from the npm registry, so it is installed by `npm run
 * oldest-node` (CI's set-up, .ci/run), never by a test: without it the test skips and says why.
 * `npm run build` first (npm test does it).
 */
export default defineConfig({
  test: {
    globalSetup: ['./test/helpers/global-tmp.ts'],
    include: OLDEST_NODE_TESTS,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    env: { TZ: 'UTC' },
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});

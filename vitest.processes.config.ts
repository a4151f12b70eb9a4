import { defineConfig } from 'vitest/config';
import { PROCESS_TESTS } from './vitest.config.js';

/**
 * `npm run test:processes`: the tests whose point is a real process and that take seconds each
 * (a pseudo-terminal, a bulk run killed half-way, the Secret Service, chromium), kept out of `npm test` so
 * it stays within its time. CI runs it after `npm test`; run it when you change `loan new`,
 * confirmations, bulk resume, key storage or the dashboard. `npm run build` first (npm test does it).
 */
export default defineConfig({
  test: {
    globalSetup: ['./test/helpers/global-tmp.ts'],
    include: PROCESS_TESTS,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    env: { TZ: 'UTC' },
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});

import { defineConfig } from 'vitest/config';

/**
 * `npm run test:load`: the long load tests of issue #6, kept out of `npm test` (their files end
 * in `.load.ts`, which the default config does not pick up). CI runs them after `npm test`.
 */
export default defineConfig({
  test: {
    globalSetup: ['./test/helpers/global-tmp.ts'],
    include: ['test/load/**/*.load.ts'],
    testTimeout: 120_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});

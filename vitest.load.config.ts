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
    // One file at a time: each load test wants the machine to itself (the soak's restarts and its
    // RSS figures, the mixed load's throughput), and CI runs them on two cores.
    fileParallelism: false,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});

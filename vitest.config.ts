import { configDefaults, defineConfig } from 'vitest/config';

/** Completion in real shells: `npm run test:shells` (vitest.shells.config.ts), which CI runs after `npm test`. */
export const SHELL_TESTS = ['test/e2e/completion.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['./test/helpers/global-tmp.ts'],
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...SHELL_TESTS],
    // End-to-end tests spawn real processes and servers; give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Tables show timestamps in the local zone; in-process runs (runCli) share the test's zone.
    env: { TZ: 'UTC' },
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});

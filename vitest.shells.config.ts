import { defineConfig } from 'vitest/config';
import { SHELL_TESTS } from './vitest.config.js';

/**
 * `npm run test:shells`: the completion scripts in real bash, zsh and fish — a shell and a Node
 * start for each case, the slowest file of all (~40 s of the run on two loaded cores), kept out of
 * `npm test` so it stays within its time. CI runs it after `npm test`; run it when you change
 * completion.
 */
export default defineConfig({
  test: {
    globalSetup: ['./test/helpers/global-tmp.ts'],
    include: SHELL_TESTS,
    testTimeout: 90_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});

import { configDefaults, defineConfig } from 'vitest/config';

/** Completion in real shells: `npm run test:shells` (vitest.shells.config.ts), which CI runs after `npm test`. */
export const SHELL_TESTS = ['test/e2e/completion.test.ts'];

/**
 * Tests whose point is a process (or other real outside parts) and that take seconds each: `loan
 * new` and confirmations in a real pseudo-terminal, bulk runs killed half-way, keys in a real
 * Secret Service, the dashboard in a real browser, the real bin's exit codes under faults and private CAs (NODE_EXTRA_CA_CERTS is
 * read at start-up), `sandbox start` and `--detach` as processes, the demo, several processes
 * writing profiles at once, Prism's validating proxy, and the borrower search at 101,000
 * borrowers. `npm run test:processes` (vitest.processes.config.ts), which CI runs after
 * `npm test`, so that `npm test` stays within 75 s on two cores.
 */
export const PROCESS_TESTS = [
  'test/e2e/loan-new-pty.test.ts',
  'test/e2e/confirm-pty.test.ts',
  'test/e2e/bulk-crash.test.ts',
  'test/e2e/keyring.test.ts',
  'test/e2e/network-paths.test.ts',
  'test/e2e/sandbox-cli.test.ts',
  'test/sandbox/detach.test.ts',
  'test/e2e/demo.test.ts',
  'test/e2e/profile-writers.test.ts',
  'test/e2e/openapi-prism.test.ts',
  'test/e2e/find-user.test.ts',
  'test/e2e/walk-memory.test.ts',
  'test/hardening/cli-faults.test.ts',
  'test/hardening/sandbox-crash.test.ts',
  'test/e2e/dashboard-browser.test.ts',
  'test/e2e/binary.test.ts',
  'test/e2e/package.test.ts',
  'test/e2e/sandbox-teams.test.ts',
  'test/e2e/examples-languages.test.ts',
  'test/hardening/pipelining.test.ts',
  'test/e2e/sandbox-api-exit.test.ts',
  'test/hardening/disk-full.test.ts',
];

/**
 * The CLI on the oldest Node the package supports, which comes from the npm registry:
 * `npm run test:oldest-node` (vitest.oldest-node.config.ts), after CI's set-up installs that Node,
 * so that `npm test` needs no network.
 */
export const OLDEST_NODE_TESTS = ['test/e2e/oldest-node.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['./test/helpers/global-tmp.ts'],
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...SHELL_TESTS, ...PROCESS_TESTS, ...OLDEST_NODE_TESTS],
    // End-to-end tests spawn real processes and servers; give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Three files at once, though CI has two cores (vitest's default there is one): most of an
    // end-to-end file's time is spent waiting on the processes and servers it starts, not in the
    // worker.
    maxWorkers: 3,
    // A worker runs its files one after another without loading the program's modules again for
    // each (that import was a third of the run's time). Safe because tests leave the process as
    // they found it: runCli checks env, exit code, cwd and signal handlers after every run, and
    // the few tests that set TZ, the cwd or fake timers put them back.
    isolate: false,
    // Tables show timestamps in the local zone; in-process runs (runCli) share the test's zone.
    env: { TZ: 'UTC' },
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});

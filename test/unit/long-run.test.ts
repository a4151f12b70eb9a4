import { describe, expect, it } from 'vitest';
import { isLongRun, sizeGiven } from '../../bin/long-run.js';

// Which runs bin/loanctl.js and the single executable restart with 4 MB semi-spaces (issue 24):
// the process-level proof for a walk is test/e2e/streaming.test.ts; this is the list of runs.
describe('the runs started with a bounded young generation', () => {
  it.each([
    ['loan', 'list', '--all', '-o', 'ndjson'],
    ['user', 'list', '--all'],
    ['user', 'create', '--from', 'users.csv'],
    ['loan', 'create', '--from', 'loans.csv', '--strict'],
    ['user', 'find', '--phone', '08012345678'],
    ['user', 'find', '--name', 'Ada'],
    ['loan', 'find', '--reference', 'LR-1'],
    ['loan', 'queue', '--limit', '5'],
  ])('%s', (...argv) => {
    expect(isLongRun(argv)).toBe(true);
  });

  it.each([
    ['--version'],
    ['loan', 'list'],
    ['user', 'exists', '--email', 'a@example.com'],
    ['user', 'create', '--email', 'a@example.com'],
    ['loan', 'show', '12'],
    ['sandbox', 'start'],
  ])('not %s', (...argv) => {
    expect(isLongRun(argv)).toBe(false);
  });

  it('keeps a size the user gave, on the command line or in NODE_OPTIONS', () => {
    expect(sizeGiven(['--max-semi-space-size=8'], undefined)).toBe(true);
    expect(sizeGiven([], '--max-semi-space-size=2 --trace-gc')).toBe(true);
    expect(sizeGiven(['--enable-source-maps'], '')).toBe(false);
  });
});

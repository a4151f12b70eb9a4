import { describe, expect, it } from 'vitest';
import { compilerFlags, sizeGiven, youngGenerationFlag } from '../../bin/long-run.js';

// Which runs bin/loanctl.js and the single executable restart on a bounded young generation, and
// how large (issue 24): the process-level proof is test/e2e/streaming.test.ts; this is the list.
describe('the runs started with a bounded young generation', () => {
  it.each([
    ['loan', 'list', '--all', '-o', 'ndjson'],
    ['user', 'list', '--all'],
    ['user', 'create', '--from', 'users.csv'],
    ['loan', 'create', '--from', 'loans.csv', '--strict'],
    ['loan', 'find', '--reference', 'LR-1'],
    ['loan', 'queue', '--limit', '5'],
  ])('4 MB: %s', (...argv) => {
    expect(youngGenerationFlag(argv)).toBe('--max-semi-space-size=4');
  });

  it.each([
    ['user', 'find', '--phone', '08012345678'],
    ['user', 'find', '--name', 'Ada'],
  ])('1 MB (it keeps almost nothing of its walk): %s', (...argv) => {
    expect(youngGenerationFlag(argv)).toBe('--max-semi-space-size=1');
  });

  it.each([
    ['--version'],
    ['loan', 'list'],
    ['user', 'exists', '--email', 'a@example.com'],
    ['user', 'create', '--email', 'a@example.com'],
    ['loan', 'show', '12'],
    ['sandbox', 'start'],
  ])("V8's defaults: %s", (...argv) => {
    expect(youngGenerationFlag(argv)).toBeUndefined();
  });

  it("starts a bulk create without V8's top tier, and nothing else", () => {
    expect(compilerFlags(['user', 'create', '--from', 'users.csv'])).toEqual(['--max-opt=2']);
    expect(compilerFlags(['loan', 'create', '--from', '-'])).toEqual(['--max-opt=2']);
    expect(compilerFlags(['loan', 'list', '--all'])).toEqual([]);
    expect(compilerFlags(['user', 'create', '--email', 'a@example.com'])).toEqual([]);
  });

  it('keeps a size the user gave, on the command line or in NODE_OPTIONS', () => {
    expect(sizeGiven(['--max-semi-space-size=8'], undefined)).toBe(true);
    expect(sizeGiven([], '--max-semi-space-size=2 --trace-gc')).toBe(true);
    expect(sizeGiven(['--enable-source-maps'], '')).toBe(false);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LARGE_FILE_BYTES, sizeGiven, youngGenerationFlag } from '../../bin/long-run.js';

// Bulk files on either side of the size worth a second start of Node.
const dir = mkdtempSync(join(tmpdir(), 'loanctl-long-run-'));
const large = join(dir, 'users.csv');
const small = join(dir, 'few.csv');
writeFileSync(large, 'x'.repeat(LARGE_FILE_BYTES));
writeFileSync(small, 'x'.repeat(LARGE_FILE_BYTES - 1));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Which runs bin/loanctl.js and the single executable restart on a bounded young generation, and
// how large (issue 24): the process-level proof is test/e2e/streaming.test.ts; this is the list.
describe('the runs started with a bounded young generation', () => {
  it.each([
    ['loan', 'list', '--all', '-o', 'ndjson'],
    ['user', 'list', '--all'],
    ['user', 'create', '--from', large],
    ['loan', 'create', `--from=${large}`, '--strict'],
    ['user', 'create', '--from', '-'],
    ['loan', 'create', '--from', '/dev/stdin'],
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
    ['user', 'create', '--from', small],
    ['user', 'create', '--from', join(dir, 'missing.csv')],
    ['loan', 'show', '12'],
    ['sandbox', 'start'],
  ])("V8's defaults: %s", (...argv) => {
    expect(youngGenerationFlag(argv)).toBeUndefined();
  });

  it('keeps a size the user gave, on the command line or in NODE_OPTIONS', () => {
    expect(sizeGiven(['--max-semi-space-size=8'], undefined)).toBe(true);
    expect(sizeGiven([], '--max-semi-space-size=2 --trace-gc')).toBe(true);
    expect(sizeGiven(['--enable-source-maps'], '')).toBe(false);
  });
});

/**
 * The line a running sandbox (`sandbox start`, the demo) writes for an error its routes did not
 * expect: one line, the stack only with --debug or LOANCTL_DEBUG=1 (docs/architecture.md#exit-codes-and-errors).
 */
import { describe, expect, it } from 'vitest';
import { sandboxErrorLine } from '../../src/commands/common/sandbox-error-line.js';

describe('sandboxErrorLine', () => {
  const error = new Error('database is locked\nmore detail');

  it('is one line without --debug, saying how to see more', () => {
    const line = sandboxErrorLine(error, { globals: {}, env: {} });
    expect(line).toBe('sandbox: unexpected error: database is locked (run again with --debug for details)\n');
    expect(line.trimEnd().split('\n')).toHaveLength(1);
    expect(sandboxErrorLine('boom', { globals: {}, env: {} })).toBe(
      'sandbox: unexpected error: boom (run again with --debug for details)\n',
    );
  });

  it('carries the stack with --debug or LOANCTL_DEBUG=1', () => {
    for (const deps of [
      { globals: { debug: true }, env: {} },
      { globals: {}, env: { LOANCTL_DEBUG: '1' } },
    ]) {
      const text = sandboxErrorLine(error, deps);
      expect(text.startsWith('sandbox: unexpected error: Error: database is locked')).toBe(true);
      expect(text).toContain('sandbox-error-line.test.ts');
    }
  });
});

import { describe, expect, it } from 'vitest';

describe('toolchain', () => {
  it('runs the tests on the pinned Node 24, not the machine Node', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
  });
});

/**
 * One duration syntax everywhere (docs/guide.md, "Durations"): the global --timeout, `loan wait`'s
 * --timeout and --interval, `sandbox logs --since`, fault latency and the sandbox clock read `5`,
 * `500ms`, `5s`, `2m`, `1h` and `7d` alike, and refuse anything else with one line naming the flag.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { durationMs, formatDuration } from '../../src/input/duration.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';

describe('durationMs', () => {
  it.each([
    ['5', 5_000],
    ['1.5', 1_500],
    ['500ms', 500],
    ['5s', 5_000],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['7d', 604_800_000],
    [' 10s ', 10_000],
  ])('%s is %d ms', (text, ms) => {
    expect(durationMs(text)).toBe(ms);
  });

  it.each(['', 's', '5 s', '5sec', '1e3', 'abc', '-5s', '5x', `${'9'.repeat(20)}d`])('%j is no duration', (text) => {
    expect(durationMs(text)).toBeUndefined();
  });

  it('takes a sign only where asked (the clock)', () => {
    expect(durationMs('-2h', { signed: true })).toBe(-7_200_000);
    expect(durationMs('+30d', { signed: true })).toBe(2_592_000_000);
  });

  it('formats back in whole units', () => {
    expect(formatDuration(90_061_000)).toBe('1d 1h 1m 1s');
    expect(formatDuration(-7_200_000)).toBe('-2h');
  });
});

describe('every duration flag reads the same syntax', () => {
  let sandbox: CliSandbox;
  beforeAll(async () => {
    sandbox = await cliSandbox();
  });
  afterAll(() => sandbox.close());

  it('the global --timeout takes 5s as well as 5', async () => {
    for (const timeout of ['5', '5s', '2m']) {
      const result = await sandbox.run(['--timeout', timeout, 'user', 'exists', '--email', 'nobody@example.com']);
      expect(result.stderr).not.toContain('--timeout');
      expect(result.exitCode).toBe(0);
    }
  });

  it('a bad duration is one line naming its flag, exit 2, before anything is sent', async () => {
    const result = await sandbox.run(['--timeout', 'soon', 'user', 'exists', '--email', 'nobody@example.com']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim().split('\n')[0]).toContain('--timeout must be a duration such as 5 (seconds), 500ms');
    const zero = await sandbox.run(['loan', 'wait', '1', '--until', 'approved', '--interval', '0']);
    expect(zero.exitCode).toBe(2);
    expect(zero.stderr).toContain('--interval must be more than 0');
  });
});

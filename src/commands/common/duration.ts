/** Durations given on the command line: `500ms`, `2s`, `10m`, `1h`, `7d` (src/input/duration.ts). */
import { UsageError } from '../../errors.js';
import { durationMs } from '../../input/duration.js';

/** `text` as milliseconds, else a usage error naming `flag`. */
export function parseDuration(text: string, flag: string): number {
  const ms = durationMs(text);
  if (ms === undefined) {
    throw new UsageError(`${flag} must be a duration such as 500ms, 2s, 10m, 1h or 7d; got "${text}".`);
  }
  return ms;
}

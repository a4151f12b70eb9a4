/** Durations given on the command line: `500ms`, `2s`, `10m`, `1h`, `7d`. */
import { UsageError } from '../../errors.js';

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `text` as milliseconds, else a usage error naming `flag`. */
export function parseDuration(text: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(text.trim());
  const ms = match ? Number(match[1]) * (UNITS[match[2] as string] as number) : Number.NaN;
  if (!Number.isFinite(ms)) {
    throw new UsageError(`${flag} must be a duration such as 500ms, 2s, 10m, 1h or 7d; got "${text}".`);
  }
  return Math.round(ms);
}

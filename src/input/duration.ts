/**
 * The one duration syntax of every flag, argument and seed file (docs/guide.md, "Durations"): a
 * bare number is seconds; otherwise a number and a unit, `500ms`, `5s`, `2m`, `1h`, `7d`. Only the
 * sandbox's clock takes a sign (`-2h` moves it back).
 */
import { UsageError } from '../errors.js';

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^([+-]?)(\d{1,12}(?:\.\d{1,3})?)(ms|s|m|h|d)?$/;

/** What a duration looks like, for messages. */
export const DURATION_EXAMPLES = '5 (seconds), 500ms, 5s, 2m, 1h or 7d';

/** Milliseconds of `text`, or undefined when it is not a duration. A sign only where `signed`. */
export function durationMs(text: string, { signed = false } = {}): number | undefined {
  const match = DURATION.exec(text.trim());
  if (!match) return undefined;
  const [, sign, amount, unit] = match;
  if (sign && !signed) return undefined;
  const ms = Math.round(Number(amount) * UNIT_MS[(unit ?? 's') as keyof typeof UNIT_MS]);
  if (!Number.isSafeInteger(ms)) return undefined;
  return sign === '-' ? -ms : ms;
}

/** `text` as milliseconds above 0, else a usage error naming `flag`. */
export function parseDuration(text: string, flag: string): number {
  const ms = durationMs(text);
  if (ms === undefined) throw new UsageError(`${flag} must be a duration such as ${DURATION_EXAMPLES}; got "${text}".`);
  if (ms <= 0) throw new UsageError(`${flag} must be more than 0, e.g. ${flag} 10s.`);
  return ms;
}

/** `90061000` → `1d 1h 1m 1s`; `0` → `0s` (a negative duration gets a leading `-`). */
export function formatDuration(ms: number): string {
  const sign = ms < 0 ? '-' : '';
  let left = Math.floor(Math.abs(ms) / 1000);
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    const count = Math.floor(left / size);
    left -= count * size;
    if (count > 0) parts.push(`${count}${unit}`);
  }
  return parts.length === 0 ? '0s' : `${sign}${parts.join(' ')}`;
}

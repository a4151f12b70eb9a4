/** Durations as operators write them: `30d`, `-90d`, `12h`, `15m`, `45s` (one whole number, one unit). */

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Milliseconds of `text`, or undefined when it is not a duration (sign allowed: `-90d`). */
export function parseDuration(text: string): number | undefined {
  const match = /^([+-]?)(\d{1,9})([smhd])$/.exec(text.trim());
  if (!match) return undefined;
  const [, sign, amount, unit] = match;
  const ms = Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
  return sign === '-' ? -ms : ms;
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

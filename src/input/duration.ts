/** Durations as loanctl reads them everywhere: `500ms`, `2s`, `10m`, `1h`, `7d`. */

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `text` as whole milliseconds, or undefined when it is not a duration. */
export function durationMs(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(text.trim());
  const ms = match ? Number(match[1]) * (UNITS[match[2] as string] as number) : Number.NaN;
  return Number.isFinite(ms) ? Math.round(ms) : undefined;
}

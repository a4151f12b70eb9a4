/**
 * What the sandbox verbs' runs share: the data dir, whole-number flags, the clock's print, the
 * wait of a server run in the foreground for its stop. Apart from ./common.ts so the command tree
 * does not load it. Loads nothing heavy: the output is imported when the clock is printed (and
 * never Fastify or node:sqlite).
 */
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { formatDuration } from '../../input/duration.js';
import { dataDirFrom } from '../../sandbox/paths.js';

export function resolveDataDir(dataDir: string | undefined, deps: Deps): string {
  if (dataDir !== undefined && dataDir.trim() === '') throw new UsageError('--data-dir must not be empty.');
  return dataDirFrom(dataDir, deps.env);
}

/** A whole number in [min, max] given as text, else a usage error naming the flag. */
export function parseWholeNumber(value: string, flag: string, min: number, max: number): number {
  const number = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}; got "${value}".`);
  }
  return number;
}

/** The sandbox's clock as `sandbox clock …` prints it: {now, offset_ms}, or a sentence on a table. */
export async function printClock(state: { now: Date; offset_ms: number }, deps: Deps): Promise<void> {
  const now = state.now.toISOString();
  const from =
    state.offset_ms === 0
      ? 'real time'
      : `real time ${state.offset_ms > 0 ? '+' : '-'} ${formatDuration(Math.abs(state.offset_ms))}`;
  const { openOutcome } = await import('../../output/render.js');
  const output = await openOutcome(deps, ['now', 'offset_ms']);
  await output.print({ now, offset_ms: state.offset_ms }, [`Sandbox time: ${now} (${from})`]);
}

/** Resolves on the first SIGINT or SIGTERM, or when `signal` aborts: a foreground server's stop. */
export function waitForStop(signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
  });
}

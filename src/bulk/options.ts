/**
 * `--from` and the single-row flags do not mix: every field comes from the file. Checked before
 * anything is read or sent (exit 2).
 */
import { UsageError } from '../errors.js';

const FLAG: Record<string, string> = { passwordStdin: '--password-stdin' };

/** The flags that only mean something with `--from`, by option key (commands/common/bulk-options.ts declares them). */
const FILE_FLAGS = {
  concurrency: '--concurrency',
  format: '--format',
  failed: '--failed',
  ignoreJournal: '--ignore-journal',
  strict: '--strict',
} as const;

/**
 * Whether the command was asked to run a file: `--from` or a flag that goes with it, so that a
 * flag given without `--from` is refused (bulkOnly) rather than silently ignored.
 */
export function wantsBulk(options: object): boolean {
  return ['from', ...Object.keys(FILE_FLAGS)].some((key) => (options as Record<string, unknown>)[key] !== undefined);
}

/**
 * The `--from` value; a usage error when it is missing or a single-row flag was given with it:
 * one of `singleRow` (option keys), or one of `givenFlags` (flags the caller found given).
 */
export function bulkOnly(
  options: { from?: string | undefined } & object,
  singleRow: readonly string[],
  givenFlags: readonly string[] = [],
): string {
  if (options.from === undefined) {
    throw new UsageError(
      `${listed(Object.values(FILE_FLAGS))} go with --from FILE.`,
      'For example: --from users.csv --concurrency 16',
    );
  }
  const given = singleRow.filter((key) => (options as Record<string, unknown>)[key] !== undefined);
  if (given.length + givenFlags.length > 0) {
    const flags = [
      ...given.map((key) => FLAG[key] ?? `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`),
      ...givenFlags,
    ];
    throw new UsageError(
      `--from reads every field from the file; leave out ${flags.join(', ')}.`,
      'Put the value in a column of the file instead.',
    );
  }
  return options.from;
}

/** `a, b and c`. */
function listed(flags: readonly string[]): string {
  return `${flags.slice(0, -1).join(', ')} and ${flags.at(-1)}`;
}

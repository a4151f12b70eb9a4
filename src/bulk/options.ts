/**
 * `--from` and the single-row flags do not mix: every field comes from the file. Checked before
 * anything is read or sent (exit 2).
 */
import { UsageError } from '../errors.js';

const FLAG: Record<string, string> = { passwordStdin: '--password-stdin' };

/** The `--from` value; a usage error when it is missing or a single-row flag was given with it. */
export function bulkOnly(options: { from?: string | undefined } & object, singleRow: readonly string[]): string {
  if (options.from === undefined) {
    throw new UsageError(
      '--concurrency, --format, --failed, --ignore-journal and --strict go with --from FILE.',
      'For example: --from users.csv --concurrency 16',
    );
  }
  const given = singleRow.filter((key) => (options as Record<string, unknown>)[key] !== undefined);
  if (given.length > 0) {
    const flags = given.map((key) => FLAG[key] ?? `--${key}`);
    throw new UsageError(
      `--from reads every field from the file; leave out ${flags.join(', ')}.`,
      'Put the value in a column of the file instead.',
    );
  }
  return options.from;
}

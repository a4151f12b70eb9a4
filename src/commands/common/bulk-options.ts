/**
 * The flags of a create verb that also takes a file (`--from`, docs/guide.md#bulk-files-and-re-runs):
 * written once for `user create`, `loan create` and `loan approve`, which run the same bulk engine (src/bulk/).
 */
import type { Command } from 'commander';

/** The flags addBulkOptions adds, as commander hands them to the run. */
export interface BulkFlags {
  from?: string;
  concurrency?: string;
  format?: string;
  failed?: string;
  ignoreJournal?: boolean;
  strict?: boolean;
}

/**
 * Adds `--from` and the flags that go with it; `what` names one record ("user", "loan request"),
 * or says what a row does (`doing`: "approve one loan request").
 */
export function addBulkOptions(command: Command, what: string, doing = `create one ${what}`): Command {
  return (
    command
      .option('--from <file>', `${doing} per row of an NDJSON or CSV file (- for stdin); safe to re-run`)
      .option('--concurrency <n>', 'with --from: rows sent at once, 1 to 64 (default 8)')
      .option('--format <ndjson|csv>', 'with --from: the file format (default: by extension, else by content)')
      // The rejected rows, ready to fix and run again.
      .option(
        '--failed <file>',
        'with --from: write every rejected row there, as read (CSV with its header, or NDJSON)',
      )
      .option('--ignore-journal', 'with --from: set aside a journal that cannot be trusted and take every row as new')
      .option(
        '--strict',
        'with --from: refuse a file with a column that is no field (default: ignore it, with a warning)',
      )
  );
}

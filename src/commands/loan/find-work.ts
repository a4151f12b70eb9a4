/**
 * The flags of finding the work (issue 12): `loan list`'s filters and `loan queue`, the approval
 * inbox — both computed by loanctl, client-side, over the streamed list (the API cannot filter or
 * sort by submission). Only flags and help here, so the command tree stays light; the runs are
 * ./list-filtered.ts and ./queue.ts, imported when they run.
 */
import type { Command } from 'commander';
import { STATE_VALUES, type StateField } from '../../contract/states.js';
import type { Deps } from '../../deps.js';

/** The values a state field is seen with (src/contract/states.ts), for the help. */
const seen = (field: StateField) => STATE_VALUES[field].join(', ');

/** `loan list`'s filter flags; their parsing is ../common/loan-filter-options.ts. */
export function withLoanFilterOptions(list: Command): Command {
  return list
    .option('--status <s>', `only this status (e.g. ${seen('status')})`)
    .option('--lender-status <s>', `only this lender status (e.g. ${seen('lender_status')})`)
    .option('--user-status <s>', `only this user status (e.g. ${seen('user_status')})`)
    .option('--user <id|email>', "only this borrower's loan requests (a user id, or an e-mail looked up)")
    .option('--created-since <date>', 'created on or after this day (yyyy-mm-dd, UTC) or instant')
    .option('--created-until <date>', 'created on or before this day (yyyy-mm-dd, UTC) or instant')
    .option('--submitted-since <date>', 'submitted on or after this day or instant')
    .option('--submitted-until <date>', 'submitted on or before this day or instant')
    .option('--approved-since <date>', 'approved on or after this day or instant')
    .option('--approved-until <date>', 'approved on or before this day or instant')
    .option('--min-amount <n>', 'amount requested at least this')
    .option('--max-amount <n>', 'amount requested at most this')
    .addHelpText(
      'after',
      `
Filters are applied by loanctl, client-side: it streams the list 100 rows a request, keeps what
matches, and stops once --limit matches (default 20; --all: every match) are found. stderr says
how many rows were scanned. Filters combine (all must match).
  $ loanctl loan list --user-status submitted --lender-status saved --min-amount 100000
  $ loanctl loan list --user ada@example.com --created-since 2026-03-01 --all -o ndjson
`,
    );
}

/** `loan queue`, made with the loan noun's `verb` (its description, `--product` and examples). */
export function registerLoanQueueCommand(
  verb: (name: string, description: string, ...examples: string[]) => Command,
  deps: Deps,
): void {
  verb(
    'queue',
    'The approval inbox: loan requests waiting for approval (submitted, not yet approved), the one waiting longest first',
    'loanctl loan queue',
    'loanctl loan queue --limit 100 -o csv > inbox.csv',
  )
    .option('--limit <n>', 'how many to show, 1 to 1000 (default 20)')
    .addHelpText(
      'after',
      `
Computed by loanctl, client-side: the API can neither filter nor sort by submission, so every page
is read (100 rows a request) and a bounded sort keeps the --limit oldest submissions. stderr says
how many are waiting and how many rows were scanned.
`,
    )
    .action(async (options) => {
      const { runLoanQueue } = await import('./queue.js');
      await runLoanQueue(options, deps);
    });
}

/** `loan find --reference R`: one loan request by its reference, client-side over the streamed list. */
export function registerLoanFindCommand(
  verb: (name: string, description: string, ...examples: string[]) => Command,
  deps: Deps,
): void {
  verb(
    'find',
    'Find a loan request by its reference (client-side: walks the streamed list, newest first)',
    'loanctl loan find --reference LR-8F2K1Q',
    'loanctl loan find --reference LR-8F2K1Q -o json | jq .id',
  )
    .requiredOption('--reference <ref>', 'the loan request reference')
    .addHelpText(
      'after',
      `
The API reads a loan request only by id: this walks the product's list page by page (memory stays
flat) and stops at the match; stderr says how many loan requests were scanned.
`,
    )
    .action(async (options) => {
      const { runLoanFind } = await import('./find.js');
      await runLoanFind(options, deps);
    });
}

/**
 * `loanctl loan list`: its flags and help; the run is ./list.ts. Its filters are
 * applied by loanctl, client-side, over the streamed pages (./list-filtered.ts); their parsing is
 * ../common/loan-filter-options.ts.
 */
import { STAGE_CHOICES, STATE_VALUES, type StateField } from '../../contract/states.js';
import { LOAN_REQUEST_PRESETS } from '../../output/presets.js';
import { productVerb, type Verb } from '../common/verb.js';

/** The values a state field is seen with (src/contract/states.ts), for the help. */
const seen = (field: StateField) => STATE_VALUES[field].join(', ');

/** What `--fields @export` stands for, indented, a few names a line. */
const exportHelp = () => {
  const names = LOAN_REQUEST_PRESETS.export;
  const lines = [];
  for (let at = 0; at < names.length; at += 5) lines.push(`  ${names.slice(at, at + 5).join(', ')}`);
  return lines.join(',\n');
};

/** The stages `--stage` takes, from the state table. */
const stagesHelp = () => STAGE_CHOICES.join(', ');

export const loanList: Verb = (loan, deps) => {
  productVerb(
    loan,
    'list',
    'List loan requests of a product, a page at a time (newest first)',
    'loanctl loan list',
    'loanctl loan list --limit 50 --cursor 172',
    'loanctl loan list --all -o ndjson --fields id,status,amount',
    'loanctl loan list --stage approved --all',
    'loanctl loan list --all --fields @export -o xlsx > loans.xlsx',
  )
    .option('--direction <ASC|DESC>', 'order by id: DESC (newest first, default) or ASC')
    .option('--cursor <id>', 'start after this loan request id (from the previous page\'s "next:" line)')
    .option('--limit <n>', 'loan requests per page (default 20); with a filter, the matches to find')
    .option('--all', 'walk every page, printing rows as they arrive')
    // The filters, applied by loanctl: the API filters nothing.
    .option('--stage <stage>', `only this stage (${stagesHelp()})`)
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
  $ loanctl loan list --stage waiting --min-amount 100000
  $ loanctl loan list --user ada@example.com --created-since 2026-03-01 --all -o ndjson

--fields may name the borrower's borrower_email and borrower_phone, from loanctl's local index of
borrowers (brought up to date first; the first time, the whole user list is read). --fields @export
is the preset for a spreadsheet:
${exportHelp()}
`,
    )
    .action(async (options) => {
      const { runLoanList } = await import('./list.js');
      await runLoanList(options, deps);
    });
};

/**
 * `loanctl loan …`: loan requests and everything attached to them. Each verb lives in its own file
 * and is imported only when it runs; this file only describes the flags and maps them to the
 * verb's options. Every verb takes `--product` (default: LOANCTL_PRODUCT_ID or the profile's).
 */
import type { Command } from 'commander';
import type { OperationKey } from '../../contract/operations.js';
import type { Deps } from '../../deps.js';
import { ANNUAL_RATE_HELP } from '../../schedule/flags.js';
import { addFieldOptions } from '../common/field-options.js';
import { DATA_HELP, examples, PRODUCT_HELP } from '../common/help.js';
import { addRowVerbs, operationVerb } from '../common/operation-verb.js';
import { registerLoanFindCommand, registerLoanQueueCommand, withLoanFilterOptions } from './find-work.js';
import { registerLoanOpenCommand } from './open.js';
import { registerLoanScheduleCommand } from './schedule.js';

const YES_HELP = 'do not ask for confirmation (needed when not on a terminal)';

export function registerLoanCommands(program: Command, deps: Deps): void {
  const loan = program
    .command('loan')
    .description('Create loan requests, attach information, submit, approve and read them')
    .addHelpText(
      'after',
      `
The flow, step by step:
  $ loanctl user create --firstname Ada --lastname Obi --email ada@example.com --phone 08012345678 --gender female
  $ loanctl loan create --user ada@example.com --amount 50000 --purpose "Shop stock"
  $ loanctl loan add-bank 172 --code 058 --account-name "Ada Obi" --account-number 0123456789
  $ loanctl loan add-employment 172 --status employed --company-name Acme --company-address "1 Marina, Lagos" \\
      --position Cashier --salary 150000 --manager "Bola Ade" --manager-phone 08098765432 --manager-email bola@acme.ng
  $ loanctl loan add-guarantor 172 --firstname Chi --lastname Eze --gender male --relationship brother \\
      --email chi@example.com --phone 08055555555
  $ loanctl loan submit 172
  $ loanctl loan approve 172 --approved-amount 45000 --rate 5 --tenure 6 --tenured-in months \\
      --rate-type simple-interest --frequency monthly --yes
  $ loanctl loan show 172
`,
    );

  /** A loan verb: its description, `--product`, and examples. */
  const verb = (name: string, description: string, ...lines: string[]) =>
    loan
      .command(name)
      .description(description)
      .option('--product <id>', PRODUCT_HELP)
      .addHelpText('after', examples(...lines));

  /** A verb that attaches information to a loan request: one operation, with a notice of what was added. */
  const attachVerb = (name: string, key: OperationKey, what: string, description: string, example: string) =>
    operationVerb(loan, name, key, deps, { description, examples: [example], what });

  const create = verb(
    'create',
    'Create a loan request for a borrower (by user id or e-mail)',
    'loanctl loan create --user ada@example.com --amount 50000 --purpose "Shop stock"',
    'loanctl loan create --user 12 --amount 250,000 --purpose "School fees" --product 3 -o json',
    'loanctl loan create --from loans.csv --concurrency 16 > results.ndjson',
  ).option('--user <id|email>', 'the borrower: a user id, or an e-mail looked up in the user list');
  addFieldOptions(create, 'createLoanRequest')
    .option('--data <json>', DATA_HELP)
    .option('--from <file>', 'create one loan request per row of an NDJSON or CSV file (- for stdin); safe to re-run')
    .option('--concurrency <n>', 'with --from: rows sent at once, 1 to 64 (default 8)')
    .option('--format <ndjson|csv>', 'with --from: the file format (default: by extension, else by content)')
    // Issue 12: the rejected rows, ready to fix and run again.
    .option('--failed <file>', 'with --from: write every rejected row there, as read (CSV with its header, or NDJSON)')
    .option('--ignore-journal', 'with --from: set aside a journal that cannot be trusted and take every row as new')
    .option(
      '--strict',
      'with --from: refuse a file with a column that is no field (default: ignore it, with a warning)',
    )
    .action(async (options) => {
      const { runLoanCreate } = await import('./create.js');
      await runLoanCreate(options, deps);
    });

  verb(
    'new',
    'Create a loan request step by step, with questions (borrower, amount, details, submit, approve)',
    'loanctl loan new',
    'loanctl loan new --resume 172',
  )
    .option('--resume <id>', 'pick up an existing loan request where it stands and offer the steps that remain')
    .action(async (options) => {
      const { runLoanNew } = await import('./new.js');
      await runLoanNew(options, deps);
    });

  const list = verb(
    'list',
    'List loan requests of a product, a page at a time (newest first)',
    'loanctl loan list',
    'loanctl loan list --limit 50 --cursor 172',
    'loanctl loan list --all -o ndjson --fields id,status,amount',
  )
    .option('--direction <ASC|DESC>', 'order by id: DESC (newest first, default) or ASC')
    .option('--cursor <id>', 'start after this loan request id (from the previous page\'s "next:" line)')
    .option('--limit <n>', 'loan requests per page (default 20); with a filter, the matches to find')
    .option('--all', 'walk every page, printing rows as they arrive')
    .action(async (options) => {
      const { runLoanList } = await import('./list.js');
      await runLoanList(options, deps);
    });
  // Filters (issue 12): applied by loanctl to the streamed pages (./find-work.ts).
  withLoanFilterOptions(list);

  // The approval inbox (issue 12): client-side over the streamed list, like list's filters.
  registerLoanQueueCommand(verb, deps);
  // A loan request by its reference (issue 12): client-side too.
  registerLoanFindCommand(verb, deps);
  registerLoanOpenCommand(verb, deps);

  verb(
    'show',
    'Show a loan request with its progress, bank details, guarantors and employment',
    'loanctl loan show 172',
    'loanctl loan show 172 -o json | jq .loan_request.status',
    'loanctl loan show 172 --web',
  )
    .argument('<id>', 'loan request id')
    .option('--web', 'open its page in the lender dashboard instead (as loan open)')
    .action(async (id, options) => {
      const { runLoanShow } = await import('./show.js');
      await runLoanShow({ ...options, id }, deps);
    });

  const update = verb(
    'update',
    'Change the purpose of a loan request',
    'loanctl loan update 172 --purpose "Shop stock and a freezer"',
  ).argument('<id>', 'loan request id');
  addFieldOptions(update, 'updateLoanRequest')
    .option('--data <json>', DATA_HELP)
    .action(async (id, options) => {
      const { runLoanUpdate } = await import('./update.js');
      await runLoanUpdate({ ...options, id }, deps);
    });

  verb(
    'delete',
    'Delete a loan request (asks first on a terminal; elsewhere needs --yes)',
    'loanctl loan delete 172',
    'loanctl loan delete 172 --yes',
  )
    .argument('<id>', 'loan request id')
    .option('-y, --yes', YES_HELP)
    .action(async (id, options) => {
      const { runLoanDelete } = await import('./delete.js');
      await runLoanDelete({ ...options, id }, deps);
    });

  // Issue 14. The root's --timeout (one request's limit) takes `loan wait ID --timeout 10m` wherever
  // it is written, so for this verb it is the whole wait's limit; each request keeps the default.
  verb(
    'wait',
    'Wait until a loan request is submitted or approved (polls; exit 124 on --timeout)',
    'loanctl loan wait 172 --until approved',
    'loanctl loan wait 172 --until submitted --timeout 30m --interval 10s',
  )
    .argument('<id>', 'loan request id')
    .option('--until <state>', 'submitted (by the borrower) or approved (by a lender)')
    .option('--interval <duration>', 'first wait between checks, growing to 4 times it (default 5s)')
    .addHelpText('after', '  --timeout <duration>  how long to wait in all, e.g. 90s, 10m, 1h (default 10m)\n')
    .action(async (id, options, command: Command) => {
      const root = command.parent?.parent;
      const given = root?.getOptionValueSource('timeout') === 'cli';
      const timeout = given ? String(root?.opts().timeout) : undefined;
      deps.globals = { ...deps.globals, timeout: undefined };
      const { runLoanWait } = await import('./wait.js');
      await runLoanWait({ ...options, id, timeout }, deps);
    });

  verb('progress', 'Print the progress marker of a loan request', 'loanctl loan progress 172')
    .argument('<id>', 'loan request id')
    .action(async (id, options) => {
      const { runLoanProgress } = await import('./progress.js');
      await runLoanProgress({ ...options, id }, deps);
    });

  verb('tokenize', 'Tokenize the linker of a loan request', 'loanctl loan tokenize 172')
    .argument('<id>', 'loan request id')
    .action(async (id, options) => {
      const { runLoanTokenize } = await import('./tokenize.js');
      await runLoanTokenize({ ...options, id }, deps);
    });

  attachVerb(
    'upload-document',
    'uploadDocument',
    'a document',
    'Attach an identity document (by URL) to a loan request',
    'loanctl loan upload-document 172 --type passport --title "International passport" --number A01234567 --url https://files.example.com/ada-passport.jpg',
  );

  operationVerb(loan, 'add-business', 'addBusinessInfo', deps, {
    description: 'Add business information to a loan request',
    examples: [
      'loanctl loan add-business 172 --name "Ada Stores" --role owner --industry retail --description "Grocery shop" --registered --registration-number RC123456 --established-on 2019-03-01',
      'loanctl loan add-business 172 --data @business.json --org-id 3',
    ],
    what: 'business information',
    // Without --org-id: the profile's, else the user list's (./add-business.ts).
    lookupDefault: {
      key: 'org_id',
      placeholder: 1,
      resolve: async () => (await import('./add-business.js')).defaultOrgId(deps),
    },
  });

  attachVerb(
    'add-bank',
    'addBankDetails',
    'bank details',
    'Add bank details to a loan request',
    'loanctl loan add-bank 172 --code 058 --account-name "Ada Obi" --account-number 0123456789 --bank-name GTBank',
  );

  attachVerb(
    'add-guarantor',
    'addGuarantor',
    'a guarantor',
    'Add a guarantor to a loan request',
    'loanctl loan add-guarantor 172 --firstname Chi --lastname Eze --gender male --relationship brother --email chi@example.com --phone 08055555555',
  );

  attachVerb(
    'add-employment',
    'addEmployment',
    'employment information',
    'Add employment information to a loan request (once per loan request)',
    'loanctl loan add-employment 172 --status employed --company-name Acme --company-address "1 Marina, Lagos" --position Cashier --salary 150000 --manager "Bola Ade" --manager-phone 08098765432 --manager-email bola@acme.ng',
  );

  verb('employment', 'Show the employment information of a loan request', 'loanctl loan employment 172')
    .argument('<id>', 'loan request id')
    .action(async (id, options) => {
      const { runLoanEmployment } = await import('./employment.js');
      await runLoanEmployment({ ...options, id }, deps);
    });

  verb('submit', 'Submit a loan request for consideration', 'loanctl loan submit 172')
    .argument('<id>', 'loan request id')
    .action(async (id, options) => {
      const { runLoanSubmit } = await import('./submit.js');
      await runLoanSubmit({ ...options, id }, deps);
    });

  const approve = verb(
    'approve',
    'Approve a loan request with terms (asks first on a terminal; elsewhere needs --yes)',
    'loanctl loan approve 172 --approved-amount 45000 --rate 5 --tenure 6 --tenured-in months --rate-type simple-interest --frequency monthly',
    'loanctl loan approve 172 --data @terms.json --yes -o json',
  ).argument('<id>', 'loan request id');
  addFieldOptions(approve, 'approveLoanRequest')
    .option('--preview', 'show the repayment schedule (as loan schedule would) before asking to confirm')
    .option('--data <json>', DATA_HELP)
    .option('-y, --yes', YES_HELP)
    .option('--annual-rate <n>', ANNUAL_RATE_HELP)
    .option('--reapprove', 'with --yes: replace the terms of a loan request that is already approved')
    .option('--allow-unsubmitted', 'with --yes: approve a loan request the borrower never submitted')
    .option('--allow-high-interest', 'with --yes: approve terms whose interest is more than the principal')
    .action(async (id, options) => {
      const { runLoanApprove } = await import('./approve.js');
      await runLoanApprove({ ...options, id }, deps);
    });

  registerLoanScheduleCommand(loan, deps);
  // The verbs the contract's rows name (`verb: 'loan banks'`): nothing to write here.
  addRowVerbs(loan, deps);
}

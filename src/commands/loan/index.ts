/**
 * `loanctl loan …`: loan requests and everything attached to them. Each verb lives in its own file
 * and is imported only when it runs; this file only describes the flags and maps them to the
 * verb's options. Every verb takes `--product` (default: LOANCTL_PRODUCT_ID or the profile's).
 */
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { examples } from '../common/help.js';
import { registerLoanScheduleCommand, withRepaymentTermOptions } from './schedule.js';

const PRODUCT_HELP = "loan product id (default: $LOANCTL_PRODUCT_ID, else the profile's product id)";
const DATA_HELP = 'the request body as JSON, @file.json, or - for stdin; flags override its fields';
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

  verb(
    'create',
    'Create a loan request for a borrower (by user id or e-mail)',
    'loanctl loan create --user ada@example.com --amount 50000 --purpose "Shop stock"',
    'loanctl loan create --user 12 --amount 250,000 --purpose "School fees" --product 3 -o json',
    'loanctl loan create --from loans.csv --concurrency 16 > results.ndjson',
  )
    .option('--user <id|email>', 'the borrower: a user id, or an e-mail looked up in the user list')
    .option('--amount <n>', 'amount requested, more than 0 (50000, 50,000 or 1250.50)')
    .option('--purpose <text>', 'what the loan is for')
    .option('--data <json>', DATA_HELP)
    .option('--from <file>', 'create one loan request per row of an NDJSON or CSV file (- for stdin); safe to re-run')
    .option('--concurrency <n>', 'with --from: rows sent at once, 1 to 64 (default 8)')
    .option('--format <ndjson|csv>', 'with --from: the file format (default: by extension, else by content)')
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

  verb(
    'list',
    'List loan requests of a product, a page at a time (newest first)',
    'loanctl loan list',
    'loanctl loan list --limit 50 --cursor 172',
    'loanctl loan list --all -o ndjson --fields id,status,amount',
  )
    .option('--direction <ASC|DESC>', 'order by id: DESC (newest first, default) or ASC')
    .option('--cursor <id>', 'start after this loan request id (from the previous page\'s "next:" line)')
    .option('--limit <n>', 'loan requests per page (default 20)')
    .option('--all', 'walk every page, printing rows as they arrive')
    .action(async (options) => {
      const { runLoanList } = await import('./list.js');
      await runLoanList(options, deps);
    });

  verb(
    'show',
    'Show a loan request with its progress, bank details, guarantors and employment',
    'loanctl loan show 172',
    'loanctl loan show 172 -o json | jq .loan_request.status',
  )
    .argument('<id>', 'loan request id')
    .action(async (id, options) => {
      const { runLoanShow } = await import('./show.js');
      await runLoanShow({ ...options, id }, deps);
    });

  verb(
    'find',
    'Find a loan request by its reference (client-side: walks the streamed list, newest first)',
    'loanctl loan find --reference LR-8F2K1Q',
    'loanctl loan find --reference LR-8F2K1Q -o json | jq .id',
  )
    .requiredOption('--reference <ref>', 'the loan request reference')
    .addHelpText(
      'after',
      "The API reads a loan request only by id: this walks the product's list page by page (memory stays\nflat) and stops at the match; stderr says how many loan requests were scanned.\n",
    )
    .action(async (options) => {
      const { runLoanFind } = await import('./find.js');
      await runLoanFind(options, deps);
    });

  verb('update', 'Change the purpose of a loan request', 'loanctl loan update 172 --purpose "Shop stock and a freezer"')
    .argument('<id>', 'loan request id')
    .option('--purpose <text>', 'the new purpose')
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

  verb(
    'upload-document',
    'Attach an identity document (by URL) to a loan request',
    'loanctl loan upload-document 172 --type passport --title "International passport" --number A01234567 --url https://files.example.com/ada-passport.jpg',
  )
    .argument('<id>', 'loan request id')
    .option('--type <type>', 'kind of document, e.g. passport, drivers-license, national-id')
    .option('--title <text>', 'title of the document')
    .option('--number <text>', 'number printed on the document')
    .option('--url <url>', 'where the image of the document is (http or https)')
    .option('--data <json>', DATA_HELP)
    .action(async (id, options) => {
      const { runLoanUploadDocument } = await import('./upload-document.js');
      await runLoanUploadDocument({ ...options, id }, deps);
    });

  verb(
    'add-business',
    'Add business information to a loan request',
    'loanctl loan add-business 172 --name "Ada Stores" --role owner --industry retail --description "Grocery shop" --registered --registration-number RC123456 --established-on 2019-03-01',
    'loanctl loan add-business 172 --data @business.json --org-id 3',
  )
    .argument('<id>', 'loan request id')
    .option('--name <text>', 'name of the business')
    .option('--org-id <id>', "your organisation's id (default: the profile's, else the org_id of your user list)")
    .option('--role <text>', "the borrower's role in the business, e.g. owner")
    .option('--industry <text>', 'industry, e.g. retail')
    .option('--description <text>', 'what the business does')
    .option('--registered', 'the business is registered')
    .option('--no-registered', 'the business is not registered')
    .option('--registration-number <text>', 'registration number (e.g. RC number)')
    .option('--established-on <date>', 'date the business was established (yyyy-mm-dd)')
    .option('--physical-location <text>', 'whether / where the business has a physical location')
    .option('--number-of-locations <n>', 'number of locations (whole number)')
    .option('--location-status <text>', 'status of the location, e.g. rented or owned')
    .option('--average-monthly-income <n>', 'average monthly income (whole number)')
    .option('--last-twelve-months-income <n>', 'income over the last twelve months (whole number)')
    .option('--primary-payments-collection-method <text>', 'how the business mostly collects payments, e.g. pos')
    .option('--number-of-employees <n>', 'number of employees (whole number)')
    .option('--monthly-salary-cost <n>', 'monthly salary cost (whole number)')
    .option('--annual-rent-cost <n>', 'annual rent cost (whole number)')
    .option('--monthly-electricity-cost <n>', 'monthly electricity cost (whole number)')
    .option('--monthly-ads-cost <n>', 'monthly advertising cost (whole number)')
    .option('--monthly-marketing-cost <n>', 'monthly marketing cost (whole number)')
    .option('--data <json>', DATA_HELP)
    .action(async (id, options) => {
      const { runLoanAddBusiness } = await import('./add-business.js');
      await runLoanAddBusiness({ ...options, id }, deps);
    });

  verb(
    'add-bank',
    'Add bank details to a loan request',
    'loanctl loan add-bank 172 --code 058 --account-name "Ada Obi" --account-number 0123456789 --bank-name GTBank',
  )
    .argument('<id>', 'loan request id')
    .option('--code <code>', 'bank code, e.g. 058')
    .option('--account-name <name>', 'name on the account')
    .option('--account-number <number>', 'account number (optional)')
    .option('--bank-name <name>', 'name of the bank (optional)')
    .option('--data <json>', DATA_HELP)
    .action(async (id, options) => {
      const { runLoanAddBank } = await import('./add-bank.js');
      await runLoanAddBank({ ...options, id }, deps);
    });

  verb('banks', 'List the bank details of a loan request', 'loanctl loan banks 172')
    .argument('<id>', 'loan request id')
    .action(async (id, options) => {
      const { runLoanBanks } = await import('./banks.js');
      await runLoanBanks({ ...options, id }, deps);
    });

  verb(
    'add-guarantor',
    'Add a guarantor to a loan request',
    'loanctl loan add-guarantor 172 --firstname Chi --lastname Eze --gender male --relationship brother --email chi@example.com --phone 08055555555',
  )
    .argument('<id>', 'loan request id')
    .option('--firstname <name>', "guarantor's first name")
    .option('--lastname <name>', "guarantor's last name")
    .option('--gender <gender>', "guarantor's gender")
    .option('--relationship <text>', "the borrower's relationship to the guarantor, e.g. brother")
    .option('--email <email>', "guarantor's e-mail")
    .option('--phone <phone>', "guarantor's phone: +234…, 234… or 0… (sent as +234…)")
    .option('--data <json>', DATA_HELP)
    .action(async (id, options) => {
      const { runLoanAddGuarantor } = await import('./add-guarantor.js');
      await runLoanAddGuarantor({ ...options, id }, deps);
    });

  verb('guarantors', 'List the guarantors of a loan request', 'loanctl loan guarantors 172')
    .argument('<id>', 'loan request id')
    .action(async (id, options) => {
      const { runLoanGuarantors } = await import('./guarantors.js');
      await runLoanGuarantors({ ...options, id }, deps);
    });

  verb(
    'add-employment',
    'Add employment information to a loan request (once per loan request)',
    'loanctl loan add-employment 172 --status employed --company-name Acme --company-address "1 Marina, Lagos" --position Cashier --salary 150000 --manager "Bola Ade" --manager-phone 08098765432 --manager-email bola@acme.ng',
  )
    .argument('<id>', 'loan request id')
    .option('--status <text>', 'current employment status, e.g. employed')
    .option('--company-name <name>', "employer's name")
    .option('--company-address <text>', "employer's address")
    .option('--position <text>', "the borrower's position")
    .option('--salary <n>', 'monthly salary (whole number)')
    .option('--manager <name>', "manager's name")
    .option('--manager-phone <phone>', "manager's phone (a Nigerian number is sent as +234…)")
    .option('--manager-email <email>', "manager's e-mail")
    .option('--data <json>', DATA_HELP)
    .action(async (id, options) => {
      const { runLoanAddEmployment } = await import('./add-employment.js');
      await runLoanAddEmployment({ ...options, id }, deps);
    });

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
  )
    .argument('<id>', 'loan request id')
    .option('--approved-amount <n>', 'amount approved, more than 0');
  withRepaymentTermOptions(approve)
    .option('--note <text>', 'why the loan is approved on these terms')
    .option('--preview', 'show the repayment schedule (as loan schedule would) before asking to confirm')
    .option('--data <json>', DATA_HELP)
    .option('-y, --yes', YES_HELP)
    .action(async (id, options) => {
      const { runLoanApprove } = await import('./approve.js');
      await runLoanApprove({ ...options, id }, deps);
    });

  registerLoanScheduleCommand(loan, deps);
}

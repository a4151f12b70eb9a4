/**
 * `loanctl loan …`: loan requests and everything attached to them. This file only lists the verbs,
 * in the order the help shows them; each is written as ../common/verb.ts says. Every verb takes
 * `--product` (default: LOANCTL_PRODUCT_ID or the profile's).
 */
import type { Command } from 'commander';
import type { OperationKey } from '../../contract/operations.js';
import type { Deps } from '../../deps.js';
import { addRowVerbs, rowVerb } from '../common/operation-verb.js';
import type { Verb } from '../common/verb.js';
import { loanAddBusiness } from './add-business-verb.js';
import { loanApprove } from './approve-verb.js';
import { loanCreate } from './create-verb.js';
import { loanDelete } from './delete-verb.js';
import { loanEmployment } from './employment-verb.js';
import { loanFind } from './find-verb.js';
import { loanList } from './list-verb.js';
import { loanNew } from './new-verb.js';
import { loanOpen } from './open-verb.js';
import { loanProgress } from './progress-verb.js';
import { loanQueue } from './queue-verb.js';
import { loanReview } from './review-verb.js';
import { loanSchedule } from './schedule-verb.js';
import { loanShow } from './show-verb.js';
import { loanSubmit } from './submit-verb.js';
import { loanTokenize } from './tokenize-verb.js';
import { loanUpdate } from './update-verb.js';
import { loanWait } from './wait-verb.js';

/** A verb that attaches information to a loan request: one operation, with a notice of what was added. */
const attachVerb = (name: string, key: OperationKey, what: string, description: string, example: string) =>
  rowVerb(name, key, { description, examples: [example], what });

const LOAN_VERBS: readonly Verb[] = [
  loanCreate,
  loanNew,
  loanList,
  loanQueue,
  loanReview,
  loanFind,
  loanOpen,
  loanShow,
  loanUpdate,
  loanDelete,
  loanWait,
  loanProgress,
  loanTokenize,
  attachVerb(
    'upload-document',
    'uploadDocument',
    'a document',
    'Attach an identity document (by URL) to a loan request',
    'loanctl loan upload-document 172 --type passport --title "International passport" --number A01234567 --url https://files.example.com/ada-passport.jpg',
  ),
  loanAddBusiness,
  attachVerb(
    'add-bank',
    'addBankDetails',
    'bank details',
    'Add bank details to a loan request',
    'loanctl loan add-bank 172 --code 058 --account-name "Ada Obi" --account-number 0123456789 --bank-name GTBank',
  ),
  attachVerb(
    'add-guarantor',
    'addGuarantor',
    'a guarantor',
    'Add a guarantor to a loan request',
    'loanctl loan add-guarantor 172 --firstname Chi --lastname Eze --gender male --relationship brother --email chi@example.com --phone 08055555555',
  ),
  attachVerb(
    'add-employment',
    'addEmployment',
    'employment information',
    'Add employment information to a loan request (once per loan request)',
    'loanctl loan add-employment 172 --status employed --company-name Acme --company-address "1 Marina, Lagos" --position Cashier --salary 150000 --manager "Bola Ade" --manager-phone 08098765432 --manager-email bola@acme.ng',
  ),
  loanEmployment,
  loanSubmit,
  loanApprove,
  loanSchedule,
  // The verbs the contract's rows name (`verb: 'loan banks'`): nothing to write here.
  addRowVerbs,
];

/** Adds the verbs to `loan`, which src/program.ts created with its description. */
export function addVerbs(loan: Command, deps: Deps): void {
  loan.addHelpText(
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

  for (const add of LOAN_VERBS) add(loan, deps);
}

/**
 * The demo's script: nine steps of the loan flow with realistic Nigerian sample data. Each step
 * is the command a person would type (shown in the narration), run through the same command tree
 * as the CLI's own argv (run.ts), so what the screen shows is what ran.
 */

import type { Deps } from '../../deps.js';
import { newestLoanRequest } from '../../domain/loan-requests.js';

/** What the steps share while the demo runs. */
export interface DemoContext {
  productId: number;
  /** Set by the loan request step. */
  loanId?: number;
}

export interface DemoStep {
  title: string;
  /** One or two sentences for someone who has never seen the API. */
  why: string;
  /** The command as typed, without `loanctl`: words, then flags. */
  argv(context: DemoContext): string[];
  /** Flags given but not shown: what a person at a terminal would be asked for instead (masked). */
  unshown?: string[];
  /** After the command has run: what the next steps need to know from it. */
  after?(context: DemoContext, deps: Deps): Promise<void>;
}

type Flags = Record<string, string | true>;

const BORROWER = {
  firstname: 'Amaka',
  lastname: 'Okafor',
  email: 'amaka.okafor@example.com',
  phone: '+2348031234567',
  gender: 'female',
};
/** Given through `--data` so nothing prompts; a person at a terminal is asked for it, masked. */
const PASSWORD = 'Demo-Passw0rd!';

const LOAN = { user: BORROWER.email, amount: '50000', purpose: 'School fees for the new term' };

const BANK = { code: '058', accountName: 'Amaka Okafor', accountNumber: '0123456789', bankName: 'GTBank' };

const EMPLOYMENT = {
  status: 'employed',
  companyName: 'Lekki Foods Ltd',
  companyAddress: '12 Admiralty Way, Lekki, Lagos',
  position: 'Accountant',
  salary: '350000',
  manager: 'Tunde Bakare',
  managerPhone: '+2348029876543',
  managerEmail: 'tunde.bakare@example.com',
};

const GUARANTOR = {
  firstname: 'Chinedu',
  lastname: 'Okafor',
  gender: 'male',
  relationship: 'brother',
  email: 'chinedu.okafor@example.com',
  phone: '+2348055512345',
};

export const TERMS = {
  approvedAmount: '45000',
  rate: '5',
  tenure: '6',
  tenuredIn: 'months',
  rateType: 'simple-interest',
  frequency: 'monthly',
} as const;

/** `loan schedule` takes the approval terms with `--amount` for the approved amount. */
const SCHEDULE = {
  amount: TERMS.approvedAmount,
  rate: TERMS.rate,
  tenure: TERMS.tenure,
  tenuredIn: TERMS.tenuredIn,
  rateType: TERMS.rateType,
  frequency: TERMS.frequency,
};

const loanId = (context: DemoContext): string => {
  if (context.loanId === undefined) throw new Error('the demo has no loan request id yet');
  return String(context.loanId);
};

export const DEMO_STEPS: readonly DemoStep[] = [
  {
    title: 'Create a borrower',
    why:
      'Amaka Okafor, the person asking for the loan. At a terminal loanctl asks for her password ' +
      '(masked); the demo supplies one.',
    argv: () => ['user', 'create', ...flags(BORROWER)],
    unshown: ['--data', JSON.stringify({ password: PASSWORD })],
  },
  {
    title: 'Request a loan',
    why: 'She asks for ₦50,000 for school fees. --user takes her e-mail; loanctl finds her user id.',
    argv: () => ['loan', 'create', ...flags(LOAN)],
    async after(context, deps) {
      context.loanId = await createdLoanRequest(context, deps);
    },
  },
  {
    title: 'Add bank details',
    why: 'The account the loan is paid into: GTBank, bank code 058.',
    argv: (context) => ['loan', 'add-bank', loanId(context), ...flags(BANK)],
  },
  {
    title: 'Add employment',
    why: 'Where she works and what she earns (₦350,000 a month), for the lender to judge affordability.',
    argv: (context) => ['loan', 'add-employment', loanId(context), ...flags(EMPLOYMENT)],
  },
  {
    title: 'Add a guarantor',
    why: 'Someone who vouches for her: her brother Chinedu.',
    argv: (context) => ['loan', 'add-guarantor', loanId(context), ...flags(GUARANTOR)],
  },
  {
    title: 'Submit',
    why: "The borrower's side is complete: the request goes to the lender (status saved → pending).",
    argv: (context) => ['loan', 'submit', loanId(context)],
  },
  {
    title: 'Preview the repayment schedule',
    why:
      'Before approving, the lender checks what the terms mean for her. Computed offline, by the same ' +
      'rules the API uses; nothing is sent.',
    argv: () => ['loan', 'schedule', ...flags(SCHEDULE)],
  },
  {
    title: 'Approve',
    why:
      'The lender approves ₦45,000 of the ₦50,000 asked, at 5% a month simple interest over 6 months. ' +
      '--yes skips the confirmation loanctl asks for at a terminal.',
    argv: (context) => ['loan', 'approve', loanId(context), ...flags({ ...TERMS, yes: true })],
  },
  {
    title: 'Show the loan request',
    why: 'Everything about it in one view: terms, progress, bank details, guarantors and employment.',
    argv: (context) => ['loan', 'show', loanId(context)],
  },
];

/**
 * The id of the loan request just created. `loan create` prints it but does not return it, so it
 * is read back the way a script would: the product's newest loan request.
 */
async function createdLoanRequest(context: DemoContext, deps: Deps): Promise<number> {
  const newest = await newestLoanRequest(await deps.api(), context.productId);
  if (newest === undefined) throw new Error('the loan request just created is not in the list');
  return newest.id;
}

/** `{ accountName: 'Amaka Okafor', yes: true }` → `['--account-name', 'Amaka Okafor', '--yes']`. */
export function flags(values: Flags): string[] {
  const words: string[] = [];
  for (const [key, value] of Object.entries(values)) {
    words.push(`--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`);
    if (value !== true) words.push(value);
  }
  return words;
}

/** A command line as a person would type it in a POSIX shell. */
export function shellLine(words: readonly string[]): string {
  return words.map(shellQuote).join(' ');
}

export function shellQuote(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  if (!/["$`\\!]/.test(word)) return `"${word}"`;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

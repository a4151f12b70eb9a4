/**
 * `loanctl loan review`: the approval queue (./queue.ts, the same walk and order) at a terminal,
 * one loan request at a time: the loan, what is attached to it, a preview with the last terms used
 * for the product, then approve (the terms asked, defaulting to those last terms: ./last-terms.ts),
 * skip, open in the dashboard, or stop. An approval goes through the review and
 * the warnings of `loan approve` (src/output/approval-review.ts) against the loan request as the
 * server has it just then. At the end (Ctrl-C too), what was done: a sentence, or under `-o json`
 * (and every format but the table) a record of the ids approved, skipped, opened and left waiting.
 *
 * Off a terminal it refuses (exit 2) and points at `loan approve --from`; stdout may be a file or a
 * pipe (`loan review -o json > done.json`), the questions being on stderr.
 */

import type { OutputStream } from '../../basics.js';
import { BODY_FIELDS, type FieldDef } from '../../contract/fields.js';
import type { LoanRequest } from '../../contract/schemas.js';
import type { Deps } from '../../deps.js';
import { loanRequestIn, lookUpLoanRequest, readAttachments } from '../../domain/loan-requests.js';
import { UsageError } from '../../errors.js';
import type { ApiClient } from '../../http/api-client.js';
import { httpDate } from '../../http/reply.js';
import { openOutput } from '../../output/output.js';
import { resolveOutputSettings } from '../../output/settings.js';
import { formatMoney } from '../../output/values.js';
import { choose } from '../../prompts/ask.js';
import { notice, type ProductOption, resolveProduct } from './common.js';
import type { LastTerms, Terms } from './last-terms.js';
import { queueLimit, readQueue } from './queue.js';

export interface LoanReviewOptions extends ProductOption {
  limit?: string;
}

type Action = 'approve' | 'skip' | 'open' | 'stop';

/** What was done, for the summary. */
interface Done {
  approved: number[];
  skipped: number[];
  opened: number[];
}

export async function runLoanReview(options: LoanReviewOptions, deps: Deps): Promise<void> {
  // Its questions draw on stderr and stdout carries only the summary, so stdout may be a file.
  if (!deps.canAskOnStderr()) {
    throw new UsageError(
      'loan review asks about one loan request at a time, at a terminal; there is none here. Nothing was sent.',
      'From a script, approve from a file: loanctl loan approve --from approvals.csv --yes (loanctl loan queue -o csv lists the waiting ones).',
    );
  }
  const printSummary = await summaryPrinter(deps);
  const productId = await resolveProduct(options, deps);
  const limit = queueLimit(options.limit, 'loan review');
  const settings = await deps.settings({ withKey: true });
  const { LastTerms } = await import('./last-terms.js');
  const lastTerms = LastTerms.open(deps.env, settings.apiKey ?? '');
  const queue = await readQueue(deps, productId, limit);
  const api = await deps.api();
  const done: Done = { approved: [], skipped: [], opened: [] };
  const say = (line: string) => (deps.prompter.note ? deps.prompter.note(line) : notice(deps, line));
  say(`${queue.waiting} waiting for approval; the ${queue.loans.length} waiting longest, oldest first.`);
  try {
    for (const queued of queue.loans) {
      const now = new Date(queue.now);
      const context = { api, productId, lastTerms, deps, say, done, now, urlTo: printSummary.urlTo };
      const action = await reviewOne(queued, context);
      if (action === 'stop') break;
    }
  } finally {
    // Left waiting: every loan of the round not approved or skipped (stopped at, or never reached).
    const decided = new Set([...done.approved, ...done.skipped]);
    await printSummary.print(
      done,
      queue.loans.map((loan) => loan.id).filter((id) => !decided.has(id)),
    );
  }
}

interface Context {
  api: ApiClient;
  productId: number;
  lastTerms: LastTerms;
  deps: Deps;
  say: (line: string) => void;
  done: Done;
  /** The server's clock when the queue was read: the preview's "today". */
  now: Date;
  /** Where Open prints the page's URL when no browser opens: stdout, unless the summary is a record. */
  urlTo: OutputStream;
}

/** One loan request: shown, then the menu until it is approved, skipped, or the review stops. */
async function reviewOne(queued: LoanRequest, context: Context): Promise<Action> {
  const { api, productId, deps, say, done } = context;
  await showLoan(queued, context);
  for (;;) {
    const action = await choose<Action>(deps.prompter, `Loan request ${queued.id}: what now?`, [
      { value: 'approve', name: 'Approve (asks the terms)' },
      { value: 'skip', name: 'Skip to the next one' },
      { value: 'open', name: 'Open it in the dashboard' },
      { value: 'stop', name: 'Stop here' },
    ]);
    if (action === 'skip') done.skipped.push(queued.id);
    if (action === 'skip' || action === 'stop') return action;
    if (action === 'open') {
      const { openLoanPage } = await import('../common/open-url.js');
      await openLoanPage(queued.id, deps, context.urlTo);
      if (!done.opened.includes(queued.id)) done.opened.push(queued.id);
      continue;
    }
    const terms = await askTerms(queued, context.lastTerms.of(productId), deps);
    // Reviewed against the loan request as the server has it now, by the server's clock.
    const lookup = await lookUpLoanRequest(api, productId, queued.id);
    const loan = loanRequestIn(lookup, productId, queued.id);
    const { reviewApproval } = await import('../../output/approval-review.js');
    const review = reviewApproval(loan, terms, httpDate(lookup.dateHeader) ?? deps.now());
    for (const line of review.lines) say(line);
    if (review.refusals.length > 0) {
      say('Not approved: the API would refuse these terms. Choose again.');
      continue;
    }
    const { summariseTerms } = await import('../../output/schedule.js');
    const { repaymentTermsFromApproval } = await import('../../repayment/index.js');
    const question =
      review.warnings.length > 0
        ? 'Approve anyway, despite the warning above?'
        : `Approve loan request ${loan.id}: ${summariseTerms(repaymentTermsFromApproval(terms))}?`;
    if (!(await deps.prompter.confirm(question, { default: review.warnings.length === 0 }))) continue;
    await api.call('approveLoanRequest', {
      params: { id: loan.id },
      productId,
      query: { action: 'approve' },
      body: terms,
    });
    context.lastTerms.remember(productId, terms);
    done.approved.push(loan.id);
    say(`Approved loan request ${loan.id}.`);
    return 'approve';
  }
}

/** The loan, what is attached to it, and a preview with the last terms used for the product. */
async function showLoan(loan: LoanRequest, { api, productId, lastTerms, now, say }: Context): Promise<void> {
  say('');
  say(`Loan request ${loan.id} (${loan.reference}): ${loan.fullname || 'an unnamed borrower'} (user ${loan.user_id})`);
  say(`  requested    ${formatMoney(loan.amount)} for "${loan.purpose}"`);
  const { progress, bankDetails: bank, guarantors, employment } = await readAttachments(api, productId, loan.id);
  const count = (list: unknown) => (Array.isArray(list) ? list.length : 0);
  say(`  progress     ${String(progress.data ?? '')}`);
  say(
    `  attached     ${count(bank.data)} bank account(s), ${count(guarantors.data)} guarantor(s), ${employment.data ? 'employment' : 'no employment'}`,
  );
  const last = lastTerms.of(productId);
  if (!last) {
    say('  No terms used yet for this product: Approve asks for them.');
    return;
  }
  const { reviewApproval } = await import('../../output/approval-review.js');
  const preview = { ...last, approved_amount: loan.amount };
  say('  With the last terms used for this product:');
  for (const line of reviewApproval(loan, preview, now).lines.slice(1)) say(`  ${line}`);
}

/** The approval's terms, each asked as `loan approve`'s flag checks it; Enter takes the default. */
async function askTerms(loan: LoanRequest, last: Terms | undefined, deps: Deps): Promise<Terms> {
  const { ask } = await import('../../prompts/ask.js');
  const { fieldSchema } = await import('../../contract/field-schemas.js');
  const { parserOf } = await import('../../input/field-parsers.js');
  const { buildOperationBody } = await import('../../input/body.js');
  const { rowFields } = await import('../../bulk/fields.js');
  const answers: Record<string, string | undefined> = {};
  const defs: readonly FieldDef[] = BODY_FIELDS.approveLoanRequest;
  for (const def of defs.filter((field) => field.required || field.name === 'note')) {
    const parse = parserOf(def);
    const value = await ask(deps.prompter, {
      label: def.question ?? def.name.replace(/_/g, ' '),
      parse: (raw, source) => {
        parse(raw, source);
        return raw.trim();
      },
      schema: undefined,
      check: (raw) => (fieldSchema(def).safeParse(parse(raw, def.name)).success ? true : `${def.name} is not valid.`),
      default: defaultOf(def.name, loan, last),
      optional: !def.required,
    });
    answers[def.name] = value;
  }
  return buildOperationBody('approveLoanRequest', rowFields('approveLoanRequest', answers)).body;
}

/** The default answer: the amount requested (the amount is the loan's own), else the last terms used for the product. */
function defaultOf(name: string, loan: LoanRequest, last: Terms | undefined): string | undefined {
  if (name === 'approved_amount') return String(loan.amount);
  if (name === 'note') return undefined;
  const value = (last as Record<string, unknown> | undefined)?.[name];
  if (value === undefined) return undefined;
  return value === 'weekely' ? 'weekly' : String(value);
}

/** The summary's fields as a record: the ids of each, in the order they were done (left: queue order). */
const SUMMARY_FIELDS = ['approved', 'skipped', 'opened', 'left_waiting'];

interface SummaryPrinter {
  print(done: Done, left: number[]): Promise<void>;
  urlTo: OutputStream;
}

/**
 * How the summary is printed, chosen before anything is sent (a bad --fields stops the run there):
 * in a table's place one sentence for the person at the terminal; in any other format (-o json,
 * ndjson, csv, --jq, --fields) a record, as every command prints, and nothing else on stdout.
 */
async function summaryPrinter(deps: Deps): Promise<SummaryPrinter> {
  const settings = resolveOutputSettings(deps.globals, deps.env, deps.io);
  const plain = settings.output.toLowerCase() === 'table' && !settings.fields && !settings.raw && !settings.jq;
  if (plain) {
    return {
      print: async (done, left) => void deps.io.stdout.write(`${sentence(done, left.length)}\n`),
      urlTo: deps.io.stdout,
    };
  }
  const output = await openOutput(deps, { names: () => SUMMARY_FIELDS });
  return {
    print: (done, left) => output.print({ ...done, left_waiting: left }),
    urlTo: deps.io.stderr,
  };
}

/** `Reviewed: approved 2 (172, 175); skipped 1 (173); opened 1 (172); 3 left waiting.` */
function sentence(done: Done, left: number): string {
  const part = (word: string, ids: number[]) => `${word} ${ids.length}${ids.length ? ` (${ids.join(', ')})` : ''}`;
  return `Reviewed: ${part('approved', done.approved)}; ${part('skipped', done.skipped)}; ${part('opened', done.opened)}; ${left} left waiting.`;
}

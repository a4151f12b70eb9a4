/**
 * `loan approve --from FILE|-`: one approval a row. Fields: `loan` (an id or a reference), the
 * approval's terms as `loan approve` takes them (approved_amount; rate, or `annual_rate` instead;
 * tenure, tenured_in, rate_type, frequency; grace_period, exclude_weekends, note), and optionally
 * `product` (else `--product`, LOANCTL_PRODUCT_ID or the profile's).
 *
 * Each row goes through the review `loan approve ID` shows (src/output/approval-review.ts),
 * against the loan request as the server has it just before sending:
 * - what the API refuses (an amount above the request) is that row's error, not sent;
 * - each warning needs its own flag for the whole file (`--reapprove`, `--allow-unsubmitted`,
 *   `--allow-high-interest`): a row with a warning its flag does not accept is an error, not sent;
 * - a loan request already approved on the row's terms is `exists`: nothing is sent. This is what
 *   makes a re-run approve nothing twice, journal or not (stdin has none), and what an unknown
 *   row of the journal (sent, no answer) and an acknowledged one are checked by (./remembered.ts).
 *
 * With `--dry-run` each row's review is printed (the loan requests are read: a read changes
 * nothing) and the approval's request shown, never sent.
 */
import type { BodyOf } from '../contract/fields.js';
import type { LoanRequest } from '../contract/schemas.js';
import { isApproved } from '../contract/states.js';
import { ReferenceWalk } from '../domain/loan-find.js';
import { loanRequestIn, lookUpLoanRequest } from '../domain/loan-requests.js';
import { ExitCode, LoanctlError, NoAccessError, UsageError } from '../errors.js';
import type { ApiClient } from '../http/api-client.js';
import { httpDate } from '../http/reply.js';
import { rateFlag } from '../input/annual-rate.js';
import { buildOperationBody } from '../input/body.js';
import { parseId } from '../input/values.js';
import type { BulkTask, RowOutcome } from './engine.js';
import { bodyColumns, fieldText, requiredColumns, rowFields } from './fields.js';

/** The loan request, its product, the yearly rate instead of `rate`, and the approval's terms. */
export const APPROVAL_FIELDS = ['loan', 'product', 'annual_rate', ...bodyColumns('approveLoanRequest')];
/** The columns a CSV of approvals must have: the loan request, the rate (either way), and the other required terms. */
export const APPROVAL_REQUIRED = [
  ['loan'],
  ...requiredColumns('approveLoanRequest').map((names) => (names[0] === 'rate' ? ['rate', 'annual_rate'] : names)),
];

/** The warnings a run accepts: each by its own flag of `loan approve`. */
export interface AcceptedWarnings {
  reapprove?: boolean | undefined;
  allowUnsubmitted?: boolean | undefined;
  allowHighInterest?: boolean | undefined;
}

export interface ApprovalRow {
  /** The loan request: its id, or its reference (found in the product's list, one walk for the file). */
  loan: { id: number } | { reference: string };
  productId: number;
  terms: BodyOf<'approveLoanRequest'>;
}

export interface ApprovalTaskOptions {
  defaultProduct: number | undefined;
  accepted: AcceptedWarnings;
  /** Reads the loan requests: under `--dry-run` too (`send` is then the client that only prints). */
  read: () => ApiClient;
  send: () => ApiClient;
  /** This machine's clock, for a reply without a Date header. */
  now: () => Date;
  /** Where each row's review goes (`--dry-run`: every row's, in one write so rows do not mix). */
  showReview?: ((row: number, lines: readonly string[]) => void) | undefined;
}

/** A row the review refuses: that row's error (exit 2 for the run's rows), never the whole run's. */
class ApprovalRefused extends LoanctlError {
  constructor(message: string) {
    super(message, ExitCode.usage);
  }
}

export interface ApprovalTask extends BulkTask<ApprovalRow> {
  lookUp(row: ApprovalRow): Promise<RowOutcome | undefined>;
  verify(row: ApprovalRow): Promise<boolean>;
}

export function approvalTask(options: ApprovalTaskOptions): ApprovalTask {
  const { read, send } = options;
  /** One walk of each product's list finds every reference of the file (src/domain/loan-find.ts). */
  const walks = new Map<number, ReferenceWalk>();

  async function idOf(row: ApprovalRow): Promise<number> {
    if ('id' in row.loan) return row.loan.id;
    const { productId } = row;
    let walk = walks.get(productId);
    if (!walk) {
      walk = new ReferenceWalk(read, productId);
      walks.set(productId, walk);
    }
    const id = await walk.find(row.loan.reference);
    if (id === undefined) {
      throw new NoAccessError(`No loan request with reference ${row.loan.reference} under product ${productId}.`);
    }
    return id;
  }

  /** The loan request as the server has it, and the server's date (the review's "today"). */
  async function current(row: ApprovalRow): Promise<{ loan: LoanRequest; now: Date | undefined }> {
    const id = await idOf(row);
    const lookup = await lookUpLoanRequest(read(), row.productId, id);
    return { loan: loanRequestIn(lookup, row.productId, id), now: httpDate(lookup.dateHeader) };
  }

  async function alreadyDone(row: ApprovalRow): Promise<RowOutcome | undefined> {
    return doneOutcome((await current(row)).loan, row.terms);
  }

  /**
   * The rows of one loan request run one after the other (the others at once): a file that names
   * a loan twice must not have both rows reviewed before either is sent. The second then finds
   * the first's approval: `exists` on the same terms, a warning to accept (--reapprove) on others.
   */
  const turns = new Map<number, Promise<unknown>>();
  function inTurn<T>(id: number, work: () => Promise<T>): Promise<T> {
    const mine = (turns.get(id) ?? Promise.resolve()).catch(() => {}).then(work);
    turns.set(id, mine);
    void mine
      .finally(() => {
        if (turns.get(id) === mine) turns.delete(id);
      })
      .catch(() => {});
    return mine;
  }

  async function approveRow(row: ApprovalRow, number: number): Promise<RowOutcome> {
    const { loan, now } = await current(row);
    const done = doneOutcome(loan, row.terms);
    if (done) return done;
    const { reviewApproval, unacceptedWarnings } = await import('../output/approval-review.js');
    const review = reviewApproval(loan, row.terms, now ?? options.now());
    options.showReview?.(number, review.lines);
    if (review.refusals.length > 0) throw new ApprovalRefused(`Not approved: ${review.refusals.join(' ')}`);
    const unaccepted = unacceptedWarnings(review, options.accepted);
    if (unaccepted.length > 0) {
      const flags = unaccepted.map((warning) => warning.flag).join(' ');
      throw new ApprovalRefused(
        `Not approved: ${unaccepted.map((warning) => warning.text).join(' ')} Pass ${flags} to approve such rows.`,
      );
    }
    const result = await send().call('approveLoanRequest', {
      params: { id: loan.id },
      productId: row.productId,
      query: { action: 'approve' },
      body: row.terms,
    });
    return {
      status: 'success',
      id: loan.id,
      reference: loan.reference,
      user_id: loan.user_id,
      message: result.message,
    };
  }

  /** The row's `exists` outcome when `loan` is approved on its terms already. */
  function doneOutcome(loan: LoanRequest, terms: ApprovalRow['terms']): RowOutcome | undefined {
    if (!approvedOn(loan, terms)) return undefined;
    return {
      status: 'exists',
      id: loan.id,
      reference: loan.reference,
      user_id: loan.user_id,
      message: `Loan request ${loan.id} is already approved on these terms; nothing was sent.`,
    };
  }

  return {
    keyOf: (fields) => ({ ...loanKey(fields) }),
    prepare(fields) {
      const loanText = fieldText(fields, 'loan');
      if (loanText === undefined) throw new UsageError('Missing loan (a loan request id or reference).');
      const productText = fieldText(fields, 'product');
      const productId = productText === undefined ? options.defaultProduct : parseId(productText, 'product');
      if (productId === undefined) {
        throw new UsageError('No product: add a product column, or pass --product N (or set LOANCTL_PRODUCT_ID).');
      }
      const rate = rowRate(fields);
      const { body } = buildOperationBody('approveLoanRequest', rowFields('approveLoanRequest', { ...fields, rate }));
      return { loan: loanOf(loanText), productId, terms: body };
    },

    async execute(row, number) {
      return inTurn(await idOf(row), () => approveRow(row, number));
    },

    async verify(row) {
      try {
        return (await alreadyDone(row)) !== undefined;
      } catch (error) {
        if (error instanceof NoAccessError) return false;
        throw error;
      }
    },

    lookUp: alreadyDone,
  };
}

/** Whether `loan` is approved on `terms` (the terms the API keeps: it keeps no frequency). */
function approvedOn(loan: LoanRequest, terms: BodyOf<'approveLoanRequest'>): boolean {
  const kept = loan.terms;
  if (!isApproved(loan) || !kept) return false;
  return (
    kept.approved_amount === terms.approved_amount &&
    Math.abs(kept.rate - terms.rate) < 1e-9 &&
    kept.tenure === terms.tenure &&
    kept.tenured_in === terms.tenured_in &&
    kept.rate_type === terms.rate_type
  );
}

/**
 * `rate` as given, or worked out from `annual_rate` and the row's tenure unit by the rule
 * `--annual-rate` follows (src/input/annual-rate.ts); its messages name the row's columns.
 */
function rowRate(fields: Record<string, unknown>): string | undefined {
  const flags = {
    rate: fieldText(fields, 'rate'),
    annualRate: fieldText(fields, 'annual_rate'),
    tenuredIn: fieldText(fields, 'tenured_in'),
    rateType: fieldText(fields, 'rate_type'),
  };
  return rateFlag(flags, undefined, COLUMN_NAMES);
}

/** The columns the rate is read from, as rateFlag's messages name them. */
const COLUMN_NAMES = { rate: 'rate', annualRate: 'annual_rate', tenuredIn: 'tenured_in', rateType: 'rate_type' };

/** A loan request named by a row: a whole number is an id, anything else a reference. */
function loanOf(text: string): ApprovalRow['loan'] {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? { id: parseId(trimmed, 'loan') } : { reference: trimmed };
}

/** What a row refused before sending is known by: the loan request it names. */
function loanKey(fields: Record<string, unknown>): Partial<RowOutcome> {
  const raw = fields.loan;
  const text = typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim() : '';
  if (text === '') return {};
  return /^\d+$/.test(text) ? { id: Number(text) } : { reference: text };
}

/**
 * `loanctl loan queue`: the approval inbox — loan requests submitted by the borrower
 * (`user_status` submitted) and not yet approved (`lender_status` not approved), the one waiting
 * longest first, with its age, its borrower and its amount.
 *
 * The API can neither filter nor order by submission (spec 4.5 orders by id, and a loan request
 * created early may be submitted late), so this is client-side: every page is streamed through the
 * filter and a *bounded sort* keeps only the `--limit` oldest submissions seen so far (default 20,
 * at most 1000). Memory is one page plus `--limit` rows, however long the list; the whole list is
 * read, since the oldest submission may be on the last page.
 */
import type { LoanRequest } from '../../contract/schemas.js';
import type { Deps } from '../../deps.js';
import { matchesLoan } from '../../domain/loan-filter.js';
import { loanRequestPages } from '../../domain/pages.js';
import { UsageError } from '../../errors.js';
import { parsePositiveInt } from '../../input/values.js';
import { render } from '../../output/render.js';
import { startWalkProgress } from '../../output/walk-progress.js';
import { notice, type ProductOption, resolveProduct } from './common.js';

export interface LoanQueueOptions extends ProductOption {
  limit?: string;
}

export const QUEUE_DEFAULT = 20;
export const QUEUE_MAX = 1000;
const SCAN_PAGE_SIZE = 100;

/** A loan request waiting for approval, as the inbox shows it. */
export interface QueueRow {
  id: number;
  submitted_at: string;
  age: string;
  user_id: number;
  borrower: string;
  amount: number;
  purpose: string;
}

export async function runLoanQueue(options: LoanQueueOptions, deps: Deps): Promise<void> {
  const productId = await resolveProduct(options, deps);
  const limit = options.limit === undefined ? QUEUE_DEFAULT : parsePositiveInt(options.limit, '--limit');
  if (limit > QUEUE_MAX) {
    throw new UsageError(`--limit must be at most ${QUEUE_MAX} for loan queue (got ${limit}).`);
  }
  if (deps.globals.raw) throw new UsageError('loan queue is computed by loanctl, so it has no --raw envelope.');
  const api = await deps.api();
  const oldest = new OldestFirst(limit);
  let scanned = 0;
  let waiting = 0;
  const query = { direction: 'ASC' as const, limit: SCAN_PAGE_SIZE };
  const progress = startWalkProgress(deps, 'loan requests');
  try {
    for await (const { loanRequests } of loanRequestPages(api, productId, query, { prefetch: true })) {
      const waitingBefore = waiting;
      for (const loan of loanRequests) {
        scanned++;
        if (!isWaiting(loan)) continue;
        waiting++;
        oldest.offer(loan);
      }
      progress.page(loanRequests.length, waiting - waitingBefore);
    }
  } finally {
    progress.stop();
  }
  const now = deps.now().getTime();
  await render(
    oldest.rows().map((loan) => queueRow(loan, now)),
    {},
    deps,
  );
  const shown = Math.min(waiting, limit);
  notice(
    deps,
    `${waiting} waiting for approval (${shown} shown, oldest submission first) of ${scanned} loan requests scanned (filtered by loanctl).`,
  );
}

/** Submitted by the borrower, not yet approved. */
function isWaiting(loan: LoanRequest): boolean {
  return matchesLoan({ userStatus: 'submitted' }, loan) && String(loan.lender_status).toLowerCase() !== 'approved';
}

/**
 * The `size` earliest submissions offered, kept sorted (ties by id). Offers are checked against the
 * latest kept first, so a long list costs one comparison a row once the inbox is full.
 */
class OldestFirst {
  private readonly kept: LoanRequest[] = [];

  constructor(private readonly size: number) {}

  offer(loan: LoanRequest): void {
    const last = this.kept.at(-1);
    if (this.kept.length === this.size && last && !earlier(loan, last)) return;
    let at = this.kept.length;
    while (at > 0 && earlier(loan, this.kept[at - 1] as LoanRequest)) at--;
    this.kept.splice(at, 0, loan);
    if (this.kept.length > this.size) this.kept.pop();
  }

  rows(): readonly LoanRequest[] {
    return this.kept;
  }
}

function earlier(a: LoanRequest, b: LoanRequest): boolean {
  const at = Date.parse(a.submitted_at);
  const bt = Date.parse(b.submitted_at);
  return at < bt || (at === bt && a.id < b.id);
}

function queueRow(loan: LoanRequest, now: number): QueueRow {
  return {
    id: loan.id,
    submitted_at: loan.submitted_at,
    age: ageText(now - Date.parse(loan.submitted_at)),
    user_id: loan.user_id,
    borrower: loan.fullname,
    amount: loan.amount,
    purpose: loan.purpose,
  };
}

/** `3 d 4 h`, `5 h 12 min`, `4 min`: how long a request has waited, to the unit that matters. */
export function ageText(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes % 60} min`;
  return `${minutes} min`;
}

/**
 * `loanctl loan queue`: the approval inbox — loan requests waiting for approval (submitted by the
 * borrower, not yet approved: src/contract/states.ts), the one waiting longest first, with its
 * age (by the server's clock: the `Date` header of the last page read), its borrower and amount.
 *
 * The API can neither filter nor order by submission (spec 4.5 orders by id, and a loan request
 * created early may be submitted late), so this is client-side: every page is streamed through the
 * filter and a *bounded sort* keeps only the `--limit` oldest submissions seen so far (default 20,
 * at most 1000). Memory is one page plus `--limit` rows, however long the list; the whole list is
 * read, since the oldest submission may be on the last page.
 */
import type { LoanRequest } from '../../contract/schemas.js';
import { isWaiting, queueOrder } from '../../contract/states.js';
import { parseTimestamp } from '../../contract/vocabulary.js';
import type { Deps } from '../../deps.js';
import { loanRequestPages } from '../../domain/pages.js';
import { UsageError } from '../../errors.js';
import { httpDate } from '../../http/reply.js';
import { parsePositiveInt } from '../../input/values.js';
import { render } from '../../output/render.js';
import { formatAge } from '../../output/values.js';
import { startWalkProgress } from '../../output/walk-progress.js';
import { notice, type ProductOption, resolveProduct } from './common.js';

export interface LoanQueueOptions extends ProductOption {
  limit?: string;
}

const QUEUE_DEFAULT = 20;
const QUEUE_MAX = 1000;
const SCAN_PAGE_SIZE = 100;

/** A loan request waiting for approval, as the inbox shows it. */
interface QueueRow {
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
  const limit = queueLimit(options.limit, 'loan queue');
  if (deps.globals.raw) throw new UsageError('loan queue is computed by loanctl, so it has no --raw envelope.');
  const { loans, waiting, scanned, now } = await readQueue(deps, productId, limit);
  await render(
    loans.map((loan) => queueRow(loan, now)),
    { kind: 'queue' },
    deps,
  );
  const shown = Math.min(waiting, limit);
  notice(
    deps,
    `${waiting} waiting for approval (${shown} shown, oldest submission first) of ${scanned} loan requests scanned (filtered by loanctl).`,
  );
}

/** `--limit` of `loan queue` and `loan review`: how many of the queue, 1 to QUEUE_MAX (default QUEUE_DEFAULT). */
export function queueLimit(raw: string | undefined, command: string): number {
  const limit = raw === undefined ? QUEUE_DEFAULT : parsePositiveInt(raw, '--limit');
  if (limit > QUEUE_MAX) throw new UsageError(`--limit must be at most ${QUEUE_MAX} for ${command} (got ${limit}).`);
  return limit;
}

/** The queue: what `loan queue` prints and `loan review` walks. */
export interface Queue {
  /** The `limit` oldest submissions waiting, oldest first. */
  loans: readonly LoanRequest[];
  /** How many are waiting in all, and how many loan requests were read. */
  waiting: number;
  scanned: number;
  /** The server's clock (its Date header), else this machine's: ages are by it. */
  now: number;
}

/** Reads the whole list of the product (a progress line on stderr) and keeps the `limit` oldest waiting. */
export async function readQueue(deps: Deps, productId: number, limit: number): Promise<Queue> {
  const api = await deps.api();
  const oldest = new OldestFirst(limit);
  let scanned = 0;
  let waiting = 0;
  let serverDate: Date | undefined;
  const query = { direction: 'ASC' as const, limit: SCAN_PAGE_SIZE };
  const progress = startWalkProgress(deps, 'loan requests');
  try {
    for await (const { loanRequests, result } of loanRequestPages(api, productId, query, { prefetch: true })) {
      serverDate = httpDate(result.dateHeader) ?? serverDate;
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
  // Ages by the server's clock: a laptop's clock (or a sandbox's moved one) must not age the queue.
  return { loans: oldest.rows(), waiting, scanned, now: (serverDate ?? deps.now()).getTime() };
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
  return queueOrder(a, b) < 0;
}

function queueRow(loan: LoanRequest, now: number): QueueRow {
  return {
    id: loan.id,
    submitted_at: loan.submitted_at,
    age: formatAge(now - (parseTimestamp(loan.submitted_at)?.getTime() ?? now)),
    user_id: loan.user_id,
    borrower: loan.fullname,
    amount: loan.amount,
    purpose: loan.purpose,
  };
}

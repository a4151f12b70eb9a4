/**
 * The approval queue, read off the loan request list: one walk of every page, keeping the oldest
 * submissions waiting with a bounded sort (memory: one page plus `limit` rows, however long the
 * list). `loan queue` shows it; `loanctl status` counts it, and the stages, in the same walk.
 */

import type { LoanRequest } from '../contract/schemas.js';
import { isWaiting, queueOrder } from '../contract/states.js';
import type { ApiClient } from '../http/api-client.js';
import { httpDate } from '../http/reply.js';
import { loanRequestPages } from './pages.js';

const SCAN_PAGE_SIZE = 100;

/** What one walk of every loan request found for the queue. */
export interface QueueScan {
  /** How many wait for approval, and how many were read. */
  waiting: number;
  scanned: number;
  /** The `limit` oldest submissions waiting, oldest first. */
  oldest: readonly LoanRequest[];
  /** The server's clock at the last page read (ms): ages are by it. */
  now: number;
}

/**
 * Walks every loan request of the product once, keeping the `limit` oldest waiting; `visit` sees
 * each loan request with the server's clock of its page (`loanctl status` counts stages with it).
 * The API can neither filter nor order by submission (spec 4.5 orders by id): every page is read.
 */
export async function scanQueue(
  api: ApiClient,
  productId: number,
  clock: () => Date,
  options: {
    limit: number;
    visit?: (loan: LoanRequest, now: number) => void;
    /** Each page read: how many rows, how many of them waiting (for a progress line). */
    onPage?: (rows: number, waiting: number) => void;
  },
): Promise<QueueScan> {
  const oldest = new OldestFirst(options.limit);
  let scanned = 0;
  let waiting = 0;
  let serverDate: Date | undefined;
  const query = { direction: 'ASC' as const, limit: SCAN_PAGE_SIZE };
  for await (const { loanRequests, reply } of loanRequestPages(api, productId, query, { prefetch: true })) {
    serverDate = httpDate(reply.dateHeader) ?? serverDate;
    // Ages by the server's clock: a laptop's clock (or a sandbox's moved one) must not age the queue.
    const now = (serverDate ?? clock()).getTime();
    const waitingBefore = waiting;
    for (const loan of loanRequests) {
      scanned++;
      options.visit?.(loan, now);
      if (!isWaiting(loan)) continue;
      waiting++;
      oldest.offer(loan);
    }
    options.onPage?.(loanRequests.length, waiting - waitingBefore);
  }
  return { waiting, scanned, oldest: oldest.rows(), now: (serverDate ?? clock()).getTime() };
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

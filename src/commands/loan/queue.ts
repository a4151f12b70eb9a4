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
import { parseTimestamp } from '../../contract/vocabulary.js';
import type { Deps } from '../../deps.js';
import { scanQueue } from '../../domain/queue-scan.js';
import { UsageError } from '../../errors.js';
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
  const limit = options.limit === undefined ? QUEUE_DEFAULT : parsePositiveInt(options.limit, '--limit');
  if (limit > QUEUE_MAX) {
    throw new UsageError(`--limit must be at most ${QUEUE_MAX} for loan queue (got ${limit}).`);
  }
  if (deps.globals.raw) throw new UsageError('loan queue is computed by loanctl, so it has no --raw envelope.');
  const progress = startWalkProgress(deps, 'loan requests');
  const scan = await scanQueue(await deps.api(), productId, deps.now, {
    limit,
    onPage: (rows, waiting) => progress.page(rows, waiting),
  }).finally(() => progress.stop());
  await render(
    scan.oldest.map((loan) => queueRow(loan, scan.now)),
    { kind: 'queue' },
    deps,
  );
  const shown = Math.min(scan.waiting, limit);
  notice(
    deps,
    `${scan.waiting} waiting for approval (${shown} shown, oldest submission first) of ${scan.scanned} loan requests scanned (filtered by loanctl).`,
  );
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

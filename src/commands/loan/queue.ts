/**
 * `loanctl loan queue`: the approval inbox — loan requests waiting for approval (submitted by the
 * borrower, not yet approved: src/contract/states.ts), the one waiting longest first, with its
 * age (by the server's clock: the `Date` header of the last page read), its borrower and amount.
 *
 * The API can neither filter nor order by submission (spec 4.5 orders by id, and a loan request
 * created early may be submitted late), so this is client-side: every page is streamed through the
 * filter and a *bounded sort* keeps only the `--limit` oldest submissions seen so far (default 20,
 * at most 1000). Memory is one page plus `--limit` rows, however long the list; the whole list is
 * read, since the oldest submission may be on the last page. `--fields` may add the borrower's
 * e-mail and phone (../common/borrower-columns.ts).
 */
import type { LoanRequest } from '../../contract/schemas.js';
import { parseTimestamp } from '../../contract/vocabulary.js';
import type { Deps } from '../../deps.js';
import { scanQueue } from '../../domain/queue-scan.js';
import { UsageError } from '../../errors.js';
import { parsePositiveInt } from '../../input/values.js';
import { joinedListShape, openOutput } from '../../output/output.js';
import { formatAge } from '../../output/values.js';
import { startWalkProgress } from '../../output/walk-progress.js';
import { borrowerJoin } from '../common/borrower-columns.js';
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
  const limit = queueLimit(options.limit, 'loan queue');
  if (deps.globals.raw) throw new UsageError('loan queue is computed by loanctl, so it has no --raw envelope.');
  const output = await openOutput(deps, joinedListShape('queue'));
  const join = await borrowerJoin(deps, output.fields);
  const { loans, waiting, scanned, now } = await readQueue(deps, productId, limit);
  const rows = loans.map((loan) => queueRow(loan, now));
  await output.print(join ? join.rows(rows) : rows);
  join?.end();
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
  const progress = startWalkProgress(deps, 'loan requests');
  const scan = await scanQueue(await deps.api(), productId, deps.now, {
    limit,
    onPage: (rows, waiting) => progress.page(rows, waiting),
  }).finally(() => progress.stop());
  return { loans: scan.oldest, waiting: scan.waiting, scanned: scan.scanned, now: scan.now };
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

/**
 * `loanctl loan wait ID --until STAGE`: polls the loan request until it reaches the stage (or a
 * later one) of the state table (src/contract/states.ts) — the borrower submitted it, a lender
 * approved it (by `loan approve`, the API, or the sandbox's dashboard) — so a script can pick the
 * flow up again. It only reads (the same look-up
 * as `loan show`), so it works against the real service too.
 *
 * Polls back off from --interval to four times it; progress is one rewritten line on a terminal
 * (stderr); nothing on stdout. Exit 0 when reached, 124 (as timeout(1)) when --timeout passes
 * first, 130 on Ctrl-C, and the usual codes for what the API answers (4: no such loan request).
 */
import { hasReached, parseStage, STAGE_CHOICES, type Stage, stageOf, stageWords } from '../../contract/states.js';
import type { Deps } from '../../deps.js';
import { findLoanRequest } from '../../domain/loan-requests.js';
import { CancelledError, UsageError, WaitTimeoutError } from '../../errors.js';
import { parseDuration } from '../../input/duration.js';
import { type LoanIdOptions, loanId, notice, resolveProduct } from './common.js';

export interface LoanWaitOptions extends LoanIdOptions {
  until?: string;
  /** The whole wait, as typed (e.g. 10m); undefined for the default. */
  timeout?: string;
  interval?: string;
}

function parseUntil(raw: string | undefined): Stage {
  const hint = `Pass --until with a stage: ${STAGE_CHOICES.join(', ')}.`;
  if (raw === undefined) throw new UsageError('Missing --until: say what to wait for.', hint);
  const stage = parseStage(raw);
  if (stage === undefined) throw new UsageError(`--until: "${raw}" is not a stage of a loan request.`, hint);
  return stage;
}

function seconds(ms: number): string {
  const total = Math.round(ms / 1000);
  return total >= 60 ? `${Math.floor(total / 60)}m${String(total % 60).padStart(2, '0')}s` : `${total}s`;
}

export async function runLoanWait(options: LoanWaitOptions, deps: Deps): Promise<void> {
  const id = loanId(options.id);
  const until = parseUntil(options.until);
  const limit = parseDuration(options.timeout ?? '10m', '--timeout');
  const interval = parseDuration(options.interval ?? '5s', '--interval');
  const productId = await resolveProduct(options, deps);
  const api = await deps.api();
  const started = deps.now().getTime();
  const tty = deps.io.stderr.isTTY === true;
  const cancel = new AbortController();
  const interrupt = () => cancel.abort();
  process.once('SIGINT', interrupt);
  try {
    for (let attempt = 0; ; attempt++) {
      const loan = await findLoanRequest(api, productId, id);
      const current = stageWords(stageOf(loan));
      const elapsed = deps.now().getTime() - started;
      if (hasReached(loan, until)) {
        if (tty) deps.io.stderr.write('\r\x1b[K');
        notice(deps, `Loan request ${id} is ${current} (after ${seconds(elapsed)}).`);
        return;
      }
      if (elapsed >= limit) {
        if (tty) deps.io.stderr.write('\n');
        throw new WaitTimeoutError(
          `Loan request ${id} is not ${stageWords(until)} after ${seconds(limit)} (it is ${current}).`,
          'Wait longer with --timeout, e.g. --timeout 30m.',
        );
      }
      const delay = Math.min(interval * 1.5 ** attempt, interval * 4, limit - elapsed);
      if (tty) {
        deps.io.stderr.write(
          `\r\x1b[KWaiting for loan request ${id} to be ${stageWords(until)}: ${current} now, ${seconds(elapsed)} of ${seconds(limit)}`,
        );
      }
      await deps.sleep(delay, cancel.signal);
      if (cancel.signal.aborted) {
        if (tty) deps.io.stderr.write('\n');
        throw new CancelledError(`Stopped waiting for loan request ${id} (Ctrl-C).`);
      }
    }
  } finally {
    process.off('SIGINT', interrupt);
  }
}

/**
 * A write whose outcome is unknown: it was sent, and no complete answer came back (a timeout, a
 * dropped connection, a reply cut off or too large, a 5xx). It may have been applied, so loanctl
 * never repeats it and never advises to "try again": the error says so and names the command that
 * shows whether it was (src/contract/checks.ts). Only a write that provably never left (connection
 * refused, DNS, connect timeout) is repeated.
 *
 * The single commands print the hint; a bulk run's row says the same in its own words
 * (src/bulk/run.ts), from `unknownOutcome`.
 */
import { ApiError, type LoanctlError, NetworkError } from '../errors.js';

const UNKNOWN = new WeakMap<object, { check: string | undefined }>();

/**
 * Whether a failed write may have been applied, given how it failed: a transport failure that is
 * not provably unsent, or an answer the API did not finish (a 5xx, or a reply that is not the
 * API's JSON unless it is a 4xx: the server refused the request).
 */
export function mayHaveApplied(error: unknown, sentForSure: boolean): boolean {
  if (error instanceof ApiError) return (error.httpStatus ?? 0) >= 500;
  if (!(error instanceof NetworkError)) return false;
  const status = error.reply?.httpStatus;
  if (status !== undefined) return status < 400 || status >= 500;
  return sentForSure;
}

/**
 * Marks `error` as a write that may have been applied, and makes its hint say how to check. A
 * write that timed out also learns that `--timeout` gives a slow server longer next time: the
 * advice a read gets, without its "try again".
 */
export function markUnknownOutcome(error: LoanctlError, check: string | undefined): void {
  UNKNOWN.set(error, { check });
  // The check command stays last on the line, where it is easy to copy.
  const slow = timedOut(error) ? ' (if the server is slow, --timeout SECONDS gives it longer next time)' : '';
  error.hint = check
    ? `It was sent and may or may not have been applied${slow}; before running it again, see whether it was: ${check}`
    : `It was sent and may or may not have been applied${slow}; see whether it was before running it again.`;
}

/** The whole-request timeout (`--timeout`), as the transport reports it (the error's cause). */
function timedOut(error: LoanctlError): boolean {
  return (error.cause as Error | undefined)?.name === 'TimeoutError';
}

/** Set when the error is a write that may or may not have been applied. */
export function unknownOutcome(error: unknown): { check: string | undefined } | undefined {
  return typeof error === 'object' && error !== null ? UNKNOWN.get(error) : undefined;
}

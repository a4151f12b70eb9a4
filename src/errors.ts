/**
 * Typed errors and the one map from error to exit code (conventions.md, "Exit codes").
 * Every failure a user can cause or meet is one of these; anything else is a bug and is reported
 * as such by main.ts.
 */

export const ExitCode = {
  ok: 0,
  api: 1,
  usage: 2,
  auth: 3,
  noAccess: 4,
  network: 5,
  cancelled: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** A failure with a message fit for the operator: what failed, why, and what to do. */
export class LoanctlError extends Error {
  readonly exitCode: ExitCode;
  /** What to do next, printed after the message on the same line. */
  readonly hint: string | undefined;

  constructor(message: string, exitCode: ExitCode, hint?: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.hint = hint;
  }
}

/** Bad flags or values, caught before anything is sent. */
export class UsageError extends LoanctlError {
  constructor(message: string, hint?: string, options?: ErrorOptions) {
    super(message, ExitCode.usage, hint, options);
  }
}

/** The API answered with status `error`, or HTTP 5xx. */
export class ApiError extends LoanctlError {
  readonly httpStatus: number | undefined;
  readonly envelope: unknown;

  constructor(message: string, details: { httpStatus?: number; envelope?: unknown; hint?: string } = {}) {
    super(message, ExitCode.api, details.hint);
    this.httpStatus = details.httpStatus;
    this.envelope = details.envelope;
  }
}

/** No API key configured, or the API rejected it (401/403). */
export class AuthError extends LoanctlError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.auth, hint);
  }
}

/** Status `no-access`, or an unknown user or loan request. */
export class NoAccessError extends LoanctlError {
  readonly envelope: unknown;

  constructor(message: string, hint?: string, envelope?: unknown) {
    super(message, ExitCode.noAccess, hint);
    this.envelope = envelope;
  }
}

/** Connection refused, DNS, TLS, timeout, or a reply that is not the API's JSON. */
export class NetworkError extends LoanctlError {
  constructor(message: string, hint?: string, options?: ErrorOptions) {
    super(message, ExitCode.network, hint, options);
  }
}

/** Ctrl-C, or a declined confirmation. */
export class CancelledError extends LoanctlError {
  constructor(message = 'Cancelled.', hint?: string) {
    super(message, ExitCode.cancelled, hint);
  }
}

/** A bulk run finished, and some rows failed (their results are already on stdout). */
export class PartialFailureError extends LoanctlError {
  constructor(message: string) {
    super(message, ExitCode.api);
  }
}

/** One line for stderr: the message, then the hint. */
export function formatError(error: LoanctlError): string {
  return error.hint ? `${error.message} ${error.hint}` : error.message;
}

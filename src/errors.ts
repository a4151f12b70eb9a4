/**
 * Typed errors and the one map from error to exit code (docs/guide.md#exit-codes).
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
  /** `loan wait`: the state was not reached within --timeout (the code of timeout(1)). */
  waitTimeout: 124,
  cancelled: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** What the API answered, kept on errors that came from a reply (for `api` and `--raw`). */
export interface ReplyInfo {
  httpStatus: number;
  /** The body exactly as received. */
  rawBody: string;
  /** The parsed envelope, when the body was one. */
  envelope?: unknown;
  /** Already printed to stdout (the `api` command prints every envelope itself). */
  shown?: boolean;
}

/** A failure with a message fit for the operator: what failed, why, and what to do. */
export class LoanctlError extends Error {
  readonly exitCode: ExitCode;
  /** What to do next, printed after the message on the same line. */
  hint: string | undefined;
  /** The reply this error was made from, when there was one. */
  reply: ReplyInfo | undefined;

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
  readonly envelope: unknown;

  constructor(message: string, hint?: string, envelope?: unknown) {
    super(message, ExitCode.auth, hint);
    this.envelope = envelope;
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

/** `loan wait` gave up: the loan request did not reach the state within --timeout. */
export class WaitTimeoutError extends LoanctlError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.waitTimeout, hint);
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

/**
 * `--dry-run`: the request has been printed and nothing was sent. main.ts ends the run with exit 0
 * and no message, so a command needs no dry-run branch of its own.
 */
export class DryRunComplete extends LoanctlError {
  constructor() {
    super('dry run: nothing was sent', ExitCode.ok);
  }
}

/** The smallest shape of a validation issue (zod's issues have it). */
export interface InputIssue {
  path: readonly PropertyKey[];
  message: string;
}

/**
 * A UsageError that says exactly which input fields are wrong and why, e.g.
 * `Invalid input: amount must be a positive amount; email must be an e-mail address.`
 * `flagFor` names the flag of a field (default: snake_case → --kebab-case).
 */
export function inputError(
  issues: readonly InputIssue[],
  options: {
    what?: string;
    flagFor?: (field: string) => string | undefined;
    /** The fields may also have come from `--data` (a body); false for a query. */
    fromData?: boolean;
  } = {},
): UsageError {
  const flagFor = options.flagFor ?? ((field: string) => `--${field.replaceAll('_', '-')}`);
  const parts: string[] = [];
  const flags = new Set<string>();
  for (const issue of issues) {
    const field = issue.path.map(String).join('.');
    const message = /received undefined$/.test(issue.message) ? 'is required' : issue.message;
    parts.push(field ? `${field} ${message}` : message);
    const top = issue.path[0];
    const flag = typeof top === 'string' ? flagFor(top) : undefined;
    if (flag) flags.add(flag);
  }
  const also = options.fromData === false ? '' : ' (or the same fields of --data)';
  const hint = flags.size > 0 ? `Fix ${[...flags].join(', ')}${also} and run again.` : undefined;
  return new UsageError(`${options.what ?? 'Invalid input'}: ${parts.join('; ')}.`, hint);
}

/** One line for stderr: the message, then the hint. */
export function formatError(error: LoanctlError): string {
  return error.hint ? `${error.message} ${error.hint}` : error.message;
}

/** A file on this machine that loanctl could not write (or read): a full disk, a read-only one, no permission. */
export class LocalFileError extends LoanctlError {
  constructor(message: string, hint?: string, options?: ErrorOptions) {
    super(message, ExitCode.api, hint, options);
  }
}

/** What each system error a file can meet means, and what to do about it. */
const FILE_FAILURES: Record<string, [why: string, fix: string]> = {
  ENOSPC: ['no space is left on its disk', 'Free some space there, then run again.'],
  EDQUOT: ['the disk quota is used up', 'Free some space there, then run again.'],
  EROFS: ['its file system is read-only', 'Make it writable, or point loanctl elsewhere, then run again.'],
  EACCES: ['permission denied', 'Check who owns it and its mode, then run again.'],
  EPERM: ['permission denied', 'Check who owns it and its mode, then run again.'],
  EIO: ['the disk reported an I/O error', 'Check the disk, then run again.'],
};

/**
 * A system error met writing `path` (`what` names it: `the config file`; `action` says what was
 * done, when not writing), as one line naming the
 * file, what happened and what to do: the error alone ("ENOSPC: no space left on device, write")
 * names no file. An error that is not a system error is returned as it is.
 */
export function localFileError(error: unknown, path: string, what: string, action = 'write'): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return error;
  const [why, fix] = FILE_FAILURES[code] ?? [code, 'Run again with --debug for details.'];
  return new LocalFileError(`Could not ${action} ${what} ${path}: ${why} (${code}).`, fix, { cause: error });
}

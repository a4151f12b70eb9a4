/**
 * A break of the contract that `loanctl sandbox proxy` found in a request or its reply: which
 * operation, where (a field path), what the contract says and what came. Recorded in the request
 * log as JSON (../log/store.ts `violations`), shown by `sandbox logs --violations`, summed up when
 * the proxy stops, and named by `--strict`'s 502.
 */
export interface Violation {
  /** The contract's operation key (`createUser`), or the method and path when no operation has them. */
  operation: string;
  /** `request` (what the client sent) or `reply` (what the upstream answered). */
  side: 'request' | 'reply';
  /** Where: `body.amount`, `query.direction`, `data.terms.rate`, `data[2].id`, or `(whole reply)`. */
  path: string;
  /** What the contract says belongs there. */
  expected: string;
  /** What came (a value, cut short), or `(absent)`. */
  received: string;
}

/** One line per break: `reply data.amount: the contract says a number, came "5000"`. */
export function describeViolation(violation: Violation): string {
  return `${violation.operation} ${violation.side} ${violation.path}: the contract says ${violation.expected}, came ${violation.received}`;
}

/** Breaks of one request, for a table cell (`; ` between them); a withheld entry's text as it is. */
export function describeViolations(violations: ReadonlyArray<Violation | string>): string {
  return violations
    .map((violation) =>
      typeof violation === 'string'
        ? violation
        : `${violation.side} ${violation.path}: ${violation.expected}, came ${violation.received}`,
    )
    .join('; ');
}

/** How many breaks each operation's field had, most first: the proxy's summary when it stops. */
export class ViolationTally {
  private requests = 0;
  private broken = 0;
  private readonly counts = new Map<string, number>();

  count(violations: readonly Violation[]): void {
    this.requests++;
    if (violations.length > 0) this.broken++;
    for (const violation of violations) {
      const where = `${violation.operation} ${violation.side} ${violation.path}: the contract says ${violation.expected}`;
      this.counts.set(where, (this.counts.get(where) ?? 0) + 1);
    }
  }

  summary(): string {
    const head = `${this.requests} request${this.requests === 1 ? '' : 's'} forwarded`;
    if (this.broken === 0) return `${head}, none broke the contract.`;
    const lines = [...this.counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([where, times]) => `  ${times} × ${where}`);
    return [
      `${head}, ${this.broken} broke the contract:`,
      ...lines,
      'See them: loanctl sandbox logs --violations',
    ].join('\n');
  }
}

/**
 * One run of the guided flow: what it was given (the API, the product), what it sent and what the
 * API answered (the borrower, the loan request, each step's line), what a Ctrl-C stops (./interrupt.ts),
 * and the summary it ends with when stopped: what this run created, with ids, a write that may
 * have gone through unseen, and the command that continues.
 */
import type { EndpointKey, ReplyData } from '../../contract/endpoints.js';
import { endpoint } from '../../contract/endpoints.js';
import type { BodyOf } from '../../contract/fields.js';
import type { LoanRequest } from '../../contract/schemas.js';
import type { Deps } from '../../deps.js';
import { CancelledError } from '../../errors.js';
import type { ApiClient, ApiResult, CallOptions } from '../../http/api-client.js';
import type { Prompter } from '../../prompts/prompter.js';
import { type CtrlC, Interrupted, isCancel } from './interrupt.js';
import { STEPS, type StepDef, type StepId } from './steps.js';

export interface Borrower {
  id: number;
  email: string | undefined;
  name: string;
}

/** A write this flow sends, for the note after Ctrl-C: what it was and how to check on it. */
interface Unconfirmed {
  what: string;
  check: string;
}

export class LoanSession {
  borrower: Borrower | undefined;
  /** Set once created or found: every step after that is about it. */
  loan: LoanRequest | undefined;
  /** What the loan request has, per step: one line each (from this run, or found on --resume). */
  readonly done = new Map<StepId, string[]>(STEPS.map((step) => [step.id, []]));
  /** What this run created, with ids, for the summary after Ctrl-C or a failure. */
  readonly created: string[] = [];
  submitted = false;
  approved = false;
  /** Picked up with --resume: what the API does not show back is unknown, not absent. */
  resumed = false;
  /** Asks its questions, each stopped by an earlier Ctrl-C. */
  readonly prompter: Prompter;
  /**
   * While a request that changes something is out: what it is and the command that shows whether
   * it went through (after Ctrl-C the reply is never read, and the summary cannot list it).
   */
  private unconfirmed: Unconfirmed | undefined;

  constructor(
    readonly deps: Deps,
    readonly api: ApiClient,
    readonly productId: number,
    /** `--product` as typed, repeated in the commands this flow suggests. */
    private readonly productFlag: string | undefined,
    readonly ctrlC: CtrlC,
  ) {
    this.prompter = ctrlC.guard(deps.prompter);
  }

  get loanRequest(): LoanRequest {
    if (!this.loan) throw new Error('the guided flow has no loan request yet');
    return this.loan;
  }

  get loanId(): number {
    return this.loanRequest.id;
  }

  /** One call of the contract, with this run's product; Ctrl-C while it is out stops the flow. */
  send<K extends EndpointKey>(key: K, options: CallOptions<K> = {}): Promise<ApiResult<ReplyData<K>>> {
    if (this.ctrlC.wasPressed) return Promise.reject(new Interrupted());
    const work = this.api.call(key, Object.assign({}, options, { productId: this.productId }));
    const note = endpoint(key).method === 'GET' ? undefined : this.describeWrite(key, options);
    this.unconfirmed = note;
    const settled = () => {
      if (this.unconfirmed === note) this.unconfirmed = undefined;
    };
    work.then(settled, settled);
    return this.ctrlC.race(work);
  }

  /** Reads that are not one call (a look-up walking pages); Ctrl-C stops waiting for them. */
  reading<T>(work: Promise<T>): Promise<T> {
    return this.ctrlC.race(work);
  }

  /**
   * One optional step's body, sent to loan request this flow is on. The body was checked by the
   * step's schema (the operation's, from the field table) as it was asked, so it is the body the
   * field table types; this is the one place the flow says so (StepDef holds an untyped schema).
   */
  sendStep(step: StepDef, body: Record<string, unknown>) {
    return this.send(step.endpoint, { params: { id: this.loanId }, body: body as BodyOf<StepDef['endpoint']> });
  }

  private describeWrite<K extends EndpointKey>(key: K, options: CallOptions<K>): Unconfirmed {
    if (key === 'createUser') {
      const email = String((options.body as { email?: unknown } | undefined)?.email);
      return { what: `the borrower ${email}`, check: `loanctl user exists --email ${email}` };
    }
    if (key === 'createLoanRequest') {
      return { what: 'the new loan request', check: `loanctl loan list --limit 1${this.productSuffix()}` };
    }
    const id = this.loanId;
    const step = STEPS.find((candidate) => candidate.endpoint === key);
    const what = step
      ? `${step.what} for loan request ${id}`
      : key === 'submitLoanRequest'
        ? `the submission of loan request ${id}`
        : `the approval of loan request ${id}`;
    return { what, check: `loanctl loan show ${id}${this.productSuffix()}` };
  }

  /** The error to end with: a cancel becomes exit 130 naming what to run next; the summary first. */
  stopped(error: unknown): unknown {
    const cancelled = isCancel(error);
    if (!cancelled && !this.loan && this.created.length === 0) return error;
    const err = this.deps.io.stderr;
    err.write('\n');
    if (this.created.length > 0) {
      err.write(`${cancelled ? 'Stopped' : 'Stopped by an error'}. Created so far:\n`);
      for (const line of this.created) err.write(`  ${line}\n`);
    } else {
      err.write(this.loan ? 'Nothing new was sent in this run.\n' : 'Nothing was created.\n');
    }
    // Ctrl-C during a read changes nothing; during a write the API may have done it anyway.
    if (error instanceof Interrupted && this.unconfirmed) {
      const { what, check } = this.unconfirmed;
      err.write(
        `Ctrl-C came while ${what} was being sent: it may have gone through, and then it is not listed above. Check with: ${check}\n`,
      );
    }
    const next = this.nextCommand();
    if (!cancelled) {
      if (next) err.write(`${next}\n`);
      return error;
    }
    return new CancelledError('Cancelled.', next);
  }

  private nextCommand(): string | undefined {
    if (this.loan) return `Continue with: ${this.resumeCommand()}`;
    if (this.borrower) {
      return `Start again with: loanctl loan new (the borrower ${this.borrower.email ?? this.borrower.id} is there now)`;
    }
    return undefined;
  }

  resumeCommand(): string {
    return `loanctl loan new --resume ${this.loanId}${this.productSuffix()}`;
  }

  private productSuffix(): string {
    return this.productFlag === undefined ? '' : ` --product ${this.productFlag}`;
  }

  lines(id: StepId): string[] {
    const lines = this.done.get(id);
    if (!lines) throw new Error(`no step ${id}`);
    return lines;
  }

  /** The optional steps still offered: a step done once is not offered again; the others repeat. */
  remainingSteps(): StepDef[] {
    return STEPS.filter((step) => !step.once || this.lines(step.id).length === 0);
  }

  /** Each step's lines, for the review screen and --resume. */
  showParts(): void {
    for (const step of STEPS) {
      const lines = this.lines(step.id);
      // On --resume, what the API does not show back may have been added by an earlier run.
      const none = this.resumed && !step.shownBack ? 'not known (the API does not show it back)' : '—';
      this.row(step.id === 'guarantor' || step.id === 'document' ? `${step.title}s` : step.title, lines[0] ?? none);
      for (const line of lines.slice(1)) this.row('', line);
    }
  }

  row(label: string, value: string): void {
    this.say(`  ${label.padEnd(22)}${value}`);
  }

  /** Talk goes to stderr (prompts draw there too); stdout carries only the loan request at the end. */
  say(line: string): void {
    this.deps.io.stderr.write(`${line}\n`);
  }
}

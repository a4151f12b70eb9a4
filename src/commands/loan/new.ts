/**
 * `loanctl loan new [--resume ID]`: the guided loan creation (issue #4).
 *
 * Borrower by e-mail (or a new one, every field asked), amount and purpose, then a menu of the
 * optional steps — bank details, employment, business information, guarantors, documents — each
 * sent as soon as it is answered; a review screen; submit; and, if the operator wants, approval
 * with the repayment schedule shown before confirming.
 *
 * - Every answer is checked as it is typed with the flags' parsers and the contract's schemas
 *   (src/prompts/ask.ts); a wrong one is refused with the reason and asked again.
 * - Ctrl-C anywhere — at a prompt (inquirer's ExitPromptError) or while a request is out (SIGINT)
 *   — lists what this run created, with ids, and exits 130 with the command that continues:
 *   `loanctl loan new --resume ID`, which reads the loan request's progress, bank details,
 *   guarantors and employment, shows them, and offers the steps that remain. A write still out
 *   at Ctrl-C may go through unseen: the summary says so and names the command that shows it.
 * - Talk goes to stderr (prompts draw there too); the loan request at the end goes to stdout.
 * - Needs a terminal: without one (or with --no-input, or CI set) it is exit 2, pointing at the
 *   verbs a script uses instead.
 */
import type { EventEmitter } from 'node:events';
import { type EndpointKey, endpoint } from '../../contract/endpoints.js';
import { bodySchema } from '../../contract/field-schemas.js';
import type { BodyKey, BodyOf } from '../../contract/fields.js';
import {
  type BankDetailsRecord,
  type EmploymentRecord,
  FREQUENCIES,
  type Frequency,
  type GuarantorRecord,
  type LoanRequest,
  RATE_TYPES,
  type RateType,
  TENURED_IN,
  type TenuredIn,
  type UserListItem,
} from '../../contract/schemas.js';

/** The body schemas this flow checks answers with, typed as their fields say. */
function typedBody<K extends BodyKey>(key: K) {
  const schema = bodySchema(key);
  return { shape: schema.shape, parse: (value: unknown) => schema.parse(value) as BodyOf<K> };
}
const UserCreateRequest = typedBody('createUser');
const LoanRequestCreate = typedBody('createLoanRequest');
const ApprovalTerms = typedBody('approveLoanRequest');

import { isSetTimestamp } from '../../contract/vocabulary.js';
import type { Deps } from '../../deps.js';
import { findLoanRequest, readAttachments } from '../../domain/loan-requests.js';
import { findUserByEmail } from '../../domain/users.js';
import { ApiError, CancelledError, formatError, NoAccessError, UsageError } from '../../errors.js';
import type { ApiClient, ApiResult, CallOptions } from '../../http/client.js';
import {
  parseAmount,
  parseEmail,
  parseId,
  parseNonNegativeNumber,
  parsePhone,
  parsePositiveInt,
  parseText,
  parseWholeNumber,
} from '../../input/values.js';
import { formatMoney } from '../../output/format.js';
import { type Output, openOutput } from '../../output/output.js';
import { ask, askRequired, choose } from '../../prompts/ask.js';
import type { Choice, Prompter } from '../../prompts/prompter.js';
import { MAX_GRACE_PERIOD_DAYS, MAX_TENURE, repaymentTermsFromApproval } from '../../repayment/index.js';
import { summariseTerms } from '../../schedule/render.js';
import { notice, type ProductOption, resolveProduct } from './common.js';
import { describeExisting, STEPS, type StepDef, type StepId } from './new-steps.js';

export interface LoanNewOptions extends ProductOption {
  /** `--resume ID`: pick up an existing loan request. */
  resume?: string | undefined;
}

export interface LoanNewHooks {
  /** Where SIGINT comes from (default: process); tests pass an EventEmitter. */
  signals?: Pick<EventEmitter, 'on' | 'off'>;
}

export async function runLoanNew(options: LoanNewOptions, deps: Deps, hooks: LoanNewHooks = {}): Promise<void> {
  const resumeId = options.resume === undefined ? undefined : parseId(options.resume, '--resume');
  if (!deps.isInteractive()) {
    throw new UsageError(
      'loan new asks its questions on a terminal, and there is none here (or --no-input or CI is set).',
      'From a script use the verbs: loanctl loan create --user EMAIL --amount N --purpose TEXT, then loan add-bank, loan submit and loan approve (see loanctl loan --help).',
    );
  }
  const productId = await resolveProduct(options, deps);
  // The flow ends printing the loan request: --fields is checked before the first question.
  const output = await openOutput(deps, 'createLoanRequest');
  const flow = new GuidedLoan(deps, output, productId, options.product, hooks.signals ?? process);
  await flow.run(resumeId);
}

/** Ctrl-C between prompts (SIGINT while a request is out). */
class Interrupted extends CancelledError {}

type MenuChoice = StepId | 'review' | 'later';

interface Borrower {
  id: number;
  email: string | undefined;
  name: string;
}

class GuidedLoan {
  private api!: ApiClient;
  private readonly prompter: Prompter;
  private borrower: Borrower | undefined;
  private loan: LoanRequest | undefined;
  /** What the loan request has, per step: one line each (from this run, or found on --resume). */
  private readonly done = new Map<StepId, string[]>(STEPS.map((step) => [step.id, []]));
  /** What this run created, with ids, for the summary after Ctrl-C or a failure. */
  private readonly created: string[] = [];
  private submitted = false;
  private approved = false;
  /** Picked up with --resume: what the API does not show back is unknown, not absent. */
  private resumed = false;
  private interrupted = false;
  /**
   * While a request that changes something is out: what it is and the command that shows whether
   * it went through (after Ctrl-C the reply is never read, and the summary cannot list it).
   */
  private unconfirmed: { what: string; check: string } | undefined;
  private rejectInterrupt: ((error: Error) => void) | undefined;
  private readonly interruption: Promise<never>;

  constructor(
    private readonly deps: Deps,
    private readonly output: Output,
    private readonly productId: number,
    private readonly productFlag: string | undefined,
    private readonly signals: Pick<EventEmitter, 'on' | 'off'>,
  ) {
    this.interruption = new Promise<never>((_resolve, reject) => {
      this.rejectInterrupt = reject;
    });
    this.interruption.catch(() => {});
    // Every question first checks for a Ctrl-C that came while no prompt was open.
    const real = deps.prompter;
    const guard = <A extends unknown[], R>(fn: (...args: A) => Promise<R>) => {
      return (...args: A): Promise<R> => {
        if (this.interrupted) return Promise.reject(new Interrupted());
        return fn(...args);
      };
    };
    this.prompter = {
      password: guard((message, options) => real.password(message, options)),
      input: guard((message, options) => real.input(message, options)),
      confirm: guard((message, options) => real.confirm(message, options)),
      ...(real.select && {
        select: <T>(message: string, choices: readonly Choice<T>[], options?: { default?: T }) =>
          guard(() => (real.select as NonNullable<Prompter['select']>)(message, choices, options))(),
      }),
    };
  }

  private readonly onSigint = () => {
    this.interrupted = true;
    this.rejectInterrupt?.(new Interrupted());
  };

  async run(resumeId: number | undefined): Promise<void> {
    this.signals.on('SIGINT', this.onSigint);
    try {
      this.api = await this.deps.api();
      if (resumeId === undefined) {
        this.say('A new loan request, step by step. Ctrl-C stops at any point; what was sent stays.\n');
        await this.findOrCreateBorrower();
        await this.createLoanRequest();
      } else {
        await this.resume(resumeId);
      }
      if (this.approved) {
        this.say(`Loan request ${this.loanId} is already approved; there is nothing left to add here.`);
        return this.finish();
      }
      if (!this.submitted && (await this.menu()) === 'later') {
        this.say(`\nLoan request ${this.loanId} is saved. Continue with: ${this.resumeCommand()}`);
        return this.finish();
      }
      await this.offerApproval();
      await this.finish();
    } catch (error) {
      throw this.stopped(error);
    } finally {
      this.signals.off('SIGINT', this.onSigint);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Borrower and loan request

  private async findOrCreateBorrower(): Promise<void> {
    for (;;) {
      const email = await askRequired(this.prompter, {
        label: "Borrower's e-mail",
        parse: parseEmail,
        schema: UserCreateRequest.shape.email,
      });
      const found = await this.lookUp(email);
      if (found) {
        this.borrower = { id: found.id, email: found.email, name: `${found.firstname} ${found.lastname}` };
        this.say(`Found ${this.borrower.name} (user ${found.id}, ${found.phone}).`);
        return;
      }
      if (await this.prompter.confirm(`No borrower with e-mail ${email} yet. Create one?`, { default: true })) {
        await this.createBorrower(email);
        return;
      }
    }
  }

  private async lookUp(email: string): Promise<UserListItem | undefined> {
    try {
      return await this.sending(findUserByEmail(this.api, email));
    } catch (error) {
      if (error instanceof NoAccessError) return undefined;
      throw error;
    }
  }

  private async createBorrower(email: string): Promise<void> {
    const shape = UserCreateRequest.shape;
    const firstname = await askRequired(this.prompter, {
      label: 'First name',
      parse: parseText,
      schema: shape.firstname,
    });
    const lastname = await askRequired(this.prompter, { label: 'Last name', parse: parseText, schema: shape.lastname });
    const phone = await askRequired(this.prompter, {
      label: 'Phone',
      hint: 'e.g. 08012345678',
      parse: parsePhone,
      schema: shape.phone,
    });
    const gender = await askRequired(this.prompter, {
      label: 'Gender',
      hint: 'e.g. female, male',
      parse: parseText,
      schema: shape.gender,
    });
    const password = await askRequired(this.prompter, {
      label: "Borrower's password",
      parse: (raw, source) => {
        if (raw === '') throw new UsageError(`${source} must not be empty.`);
        return raw;
      },
      schema: shape.password,
      secret: true,
    });
    const body = UserCreateRequest.parse({ firstname, lastname, email, phone, gender, password });
    const result = await this.send('createUser', { body });
    if (result.status === 'exists') this.say(`A borrower with e-mail ${email} already exists; using it.`);
    const user = await this.sending(findUserByEmail(this.api, email));
    this.borrower = { id: user.id, email: user.email, name: `${user.firstname} ${user.lastname}` };
    if (result.status !== 'exists') this.created.push(`user ${user.id} (${user.email})`);
    this.say(`Created borrower ${this.borrower.name} (user ${user.id}).`);
  }

  private async createLoanRequest(): Promise<void> {
    const borrower = this.borrower as Borrower;
    const amount = await askRequired(this.prompter, {
      label: 'Amount requested',
      hint: 'e.g. 50000',
      parse: parseAmount,
      schema: LoanRequestCreate.shape.amount,
    });
    const purpose = await askRequired(this.prompter, {
      label: 'Purpose of the loan',
      parse: parseText,
      schema: LoanRequestCreate.shape.purpose,
    });
    const result = await this.send('createLoanRequest', {
      params: { user_id: borrower.id },
      body: LoanRequestCreate.parse({ amount, purpose }),
    });
    this.loan = result.data as LoanRequest;
    this.created.push(`loan request ${this.loan.id} (${formatMoney(amount)}, ${purpose})`);
    this.say(`Created loan request ${this.loan.id} (${this.loan.reference}) for ${borrower.name}.\n`);
  }

  private async resume(id: number): Promise<void> {
    const found = await this.sending(findLoanRequest(this.api, this.productId, id));
    this.loan = found;
    this.borrower = { id: found.user_id, email: undefined, name: found.fullname };
    const {
      progress,
      bankDetails: banks,
      guarantors,
      employment,
    } = await this.sending(readAttachments(this.api, this.productId, id));
    // What was attached comes from the records themselves. The progress string is only shown:
    // the spec never defines its values, so the real service's markers are unknown.
    for (const record of (banks.data ?? []) as BankDetailsRecord[])
      this.lines('bank').push(describeExisting.bank(record));
    for (const record of (guarantors.data ?? []) as GuarantorRecord[])
      this.lines('guarantor').push(describeExisting.guarantor(record));
    const work = employment.data as EmploymentRecord | null;
    if (work) this.lines('employment').push(describeExisting.employment(work));
    this.resumed = true;
    this.submitted = found.user_status === 'submitted' || isSetTimestamp(found.submitted_at);
    this.approved = found.lender_status === 'approved' || isSetTimestamp(found.approved_at);

    this.say(
      `Loan request ${found.id} (${found.reference}) for ${found.fullname}: ${formatMoney(found.amount)}, ${found.purpose}.`,
    );
    const state = `status ${found.status}, lender status ${found.lender_status}.`;
    const shown = progress.data ?? found.progress;
    this.say(typeof shown === 'string' && shown !== '' ? `Progress: ${shown}; ${state}` : `Loan request ${state}`);
    this.showParts();
    if (!this.submitted) {
      const remaining = this.remainingSteps().map((step) => step.title.toLowerCase());
      this.say(`Still to add, if you want: ${remaining.join(', ')}.\n`);
    }
  }

  // -------------------------------------------------------------------------------------------
  // The optional steps

  private remainingSteps(): StepDef[] {
    return STEPS.filter((step) => !step.once || this.lines(step.id).length === 0);
  }

  private async menu(): Promise<'submitted' | 'later'> {
    for (;;) {
      const anything = STEPS.some((step) => this.lines(step.id).length > 0);
      const choices: Choice<MenuChoice>[] = this.remainingSteps().map((step) => {
        const count = this.lines(step.id).length;
        const name = step.once
          ? `Add ${step.title.toLowerCase()}`
          : `Add ${count > 0 ? 'another' : 'a'} ${step.title.toLowerCase()}${count > 0 ? ` (${count} so far)` : ''}`;
        return { value: step.id, name };
      });
      choices.push({
        value: 'review',
        name: 'Review and submit',
        ...(!anything && { disabled: 'add at least one of the above first' }),
      });
      choices.push({ value: 'later', name: 'Finish later (the loan request stays saved)' });
      const next = await choose(this.prompter, 'What next?', choices);
      if (next === 'later') return 'later';
      if (next === 'review') {
        if (await this.review()) return 'submitted';
        continue;
      }
      const step = STEPS.find((candidate) => candidate.id === next) as StepDef;
      await this.runStep(step);
    }
  }

  private async runStep(step: StepDef): Promise<void> {
    for (;;) {
      const body = await this.askStep(step);
      try {
        const result = await this.send(step.endpoint, { params: { id: this.loanId }, body } as never);
        const line = step.describe(body);
        this.lines(step.id).push(line);
        const id = step.createdId?.(result.data);
        this.created.push(`${step.what.replace(/^an? /, '')}${id === undefined ? '' : ` ${id}`}: ${line}`);
        this.say(`Added ${step.what} to loan request ${this.loanId}.\n`);
      } catch (error) {
        // The API refused this step (e.g. employment added twice): say why, keep the flow going.
        if (!(error instanceof ApiError || error instanceof UsageError)) throw error;
        this.say(`loanctl: ${formatError(error)}`);
        this.say(`Nothing was added. Pick the step again to retry, or choose another.\n`);
        return;
      }
      if (step.once) return;
      const again = await this.prompter.confirm(`Add another ${step.title.toLowerCase()}?`, { default: false });
      if (!again) return;
    }
  }

  private async askStep(step: StepDef): Promise<Record<string, unknown>> {
    this.say(`${step.title} for loan request ${this.loanId}:`);
    const context = { borrowerName: this.borrower?.name ?? '', orgId: (this.loan as LoanRequest).org_id };
    const body: Record<string, unknown> = {};
    for (const field of step.fields) {
      if (field.when && !field.when(body)) continue;
      if (field.fixed) {
        body[field.key] = field.fixed(context);
        continue;
      }
      if (field.confirm) {
        body[field.key] = await this.prompter.confirm(field.label, { default: false });
        continue;
      }
      const value = await ask(this.prompter, {
        label: field.label,
        parse: field.parse ?? parseText,
        schema: step.schema.shape[field.key],
        hint: field.hint,
        optional: field.optional ?? false,
        default: field.default?.(context) || undefined,
      });
      if (value !== undefined) body[field.key] = value;
    }
    return step.schema.parse(body) as Record<string, unknown>;
  }

  // -------------------------------------------------------------------------------------------
  // Review, submit, approve

  /** The review screen; true once submitted, false to go back to the steps. */
  private async review(): Promise<boolean> {
    const loan = this.loan as LoanRequest;
    this.say(`\nReview: loan request ${loan.id} (${loan.reference})`);
    const who = this.borrower as Borrower;
    this.row('Borrower', `${who.name}${who.email ? ` <${who.email}>` : ''} (user ${who.id})`);
    this.row('Amount', formatMoney(loan.amount));
    this.row('Purpose', loan.purpose);
    this.showParts();
    this.say('');
    if (!(await this.prompter.confirm(`Submit loan request ${loan.id} now?`, { default: true }))) return false;
    try {
      const result = await this.send('submitLoanRequest', { params: { id: loan.id } });
      this.loan = (result.data1 as LoanRequest | null) ?? loan;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.say(`loanctl: ${formatError(error)}\n`);
      return false;
    }
    this.submitted = true;
    this.created.push(`submitted loan request ${loan.id}`);
    this.say(`Submitted loan request ${loan.id}.\n`);
    return true;
  }

  private async offerApproval(): Promise<void> {
    const id = this.loanId;
    if (!(await this.prompter.confirm(`Approve loan request ${id} now?`, { default: false }))) {
      this.say(`Not approved. When ready: loanctl loan approve ${id} --preview …  (or ${this.resumeCommand()})`);
      return;
    }
    const terms = await this.askTerms();
    const { previewApproval } = await import('../../schedule/preview.js');
    this.say('');
    await previewApproval(terms, this.deps);
    const summary = describeApproval(terms);
    if (!(await this.prompter.confirm(`Approve loan request ${id}: ${summary}?`, { default: false }))) {
      this.say(
        `Not approved. Approve later with: loanctl loan approve ${id} --preview …  (or ${this.resumeCommand()})`,
      );
      return;
    }
    const result = await this.send('approveLoanRequest', {
      params: { id },
      query: { action: 'approve' },
      body: terms,
    });
    this.loan = (result.payload as LoanRequest | null) ?? this.loan;
    this.approved = true;
    this.created.push(`approved loan request ${id}`);
    this.say(`Approved loan request ${id}: ${summary}.\n`);
  }

  private async askTerms(): Promise<BodyOf<'approveLoanRequest'>> {
    const loan = this.loan as LoanRequest;
    const shape = ApprovalTerms.shape;
    const approvedAmount = await askRequired(this.prompter, {
      label: 'Approved amount',
      parse: parseAmount,
      schema: shape.approved_amount,
      default: String(loan.amount),
      check: (value) =>
        value <= loan.amount ||
        `Approved amount must not be more than the amount requested (${formatMoney(loan.amount)}).`,
    });
    const tenuredIn = await choose<TenuredIn>(
      this.prompter,
      'Tenure in',
      TENURED_IN.map((unit) => ({ value: unit, name: unit })),
      { default: 'months' },
    );
    const tenure = await askRequired(this.prompter, {
      label: 'Tenure',
      hint: `number of ${tenuredIn}`,
      parse: parsePositiveInt,
      schema: shape.tenure,
      check: (value) =>
        value <= MAX_TENURE[tenuredIn] || `Tenure must be at most ${MAX_TENURE[tenuredIn]} ${tenuredIn} (100 years).`,
    });
    const rateType = await choose<RateType>(
      this.prompter,
      'Rate type',
      RATE_TYPES.map((type) => ({ value: type, name: type, description: RATE_TYPE_HELP[type] })),
      { default: 'simple-interest' },
    );
    const unit = tenuredIn.replace(/s$/, '');
    const rate = await askRequired(this.prompter, {
      label: rateType === 'fixed-amount' ? 'Interest for the whole loan' : 'Rate',
      hint: rateType === 'fixed-amount' ? 'an amount, e.g. 15000' : `% a ${unit}, e.g. 5`,
      parse: parseNonNegativeNumber,
      schema: shape.rate,
    });
    const frequency = await choose<Frequency>(
      this.prompter,
      'Repayment frequency',
      FREQUENCIES.map((value) => ({ value, name: value === 'weekely' ? 'weekly' : value })),
      { default: 'monthly' },
    );
    const gracePeriod = await askRequired(this.prompter, {
      label: 'Grace period',
      hint: 'days',
      parse: parseWholeNumber,
      schema: shape.grace_period,
      default: '0',
      check: (value) => value <= MAX_GRACE_PERIOD_DAYS || `Grace period must be at most ${MAX_GRACE_PERIOD_DAYS} days.`,
    });
    const excludeWeekends = await this.prompter.confirm('Move due dates off weekends?', { default: false });
    const note = await ask(this.prompter, { label: 'Note', parse: parseText, optional: true });
    return ApprovalTerms.parse({
      approved_amount: approvedAmount,
      rate,
      tenure,
      tenured_in: tenuredIn,
      rate_type: rateType,
      frequency,
      grace_period: gracePeriod,
      exclude_weekends: excludeWeekends,
      ...(note !== undefined && { note }),
    });
  }

  private async finish(): Promise<void> {
    const loan = this.loan as LoanRequest;
    await this.output.print(loan, JSON.stringify(loan));
    notice(this.deps, `next: loanctl loan show ${loan.id}`);
  }

  // -------------------------------------------------------------------------------------------
  // Sending, Ctrl-C and the summary

  private get loanId(): number {
    return (this.loan as LoanRequest).id;
  }

  /** One call of the contract, with this run's product; Ctrl-C while it is out stops the flow. */
  private send<K extends EndpointKey>(key: K, options: CallOptions<K> = {}): Promise<ApiResult> {
    if (this.interrupted) return Promise.reject(new Interrupted());
    const work = this.api.call(key, { ...options, productId: this.productId } as never) as Promise<ApiResult>;
    const note = endpoint(key).method === 'GET' ? undefined : this.describeWrite(key, options);
    this.unconfirmed = note;
    const settled = () => {
      if (this.unconfirmed === note) this.unconfirmed = undefined;
    };
    work.then(settled, settled);
    return this.sending(work);
  }

  /** A write this flow sends, for the note after Ctrl-C: what it was and how to check on it. */
  private describeWrite<K extends EndpointKey>(key: K, options: CallOptions<K>): { what: string; check: string } {
    const product = this.productFlag === undefined ? '' : ` --product ${this.productFlag}`;
    if (key === 'createUser') {
      const email = String((options.body as { email?: unknown } | undefined)?.email);
      return { what: `the borrower ${email}`, check: `loanctl user exists --email ${email}` };
    }
    if (key === 'createLoanRequest') {
      return { what: 'the new loan request', check: `loanctl loan list --limit 1${product}` };
    }
    const id = this.loanId;
    const step = STEPS.find((candidate) => candidate.endpoint === key);
    const what = step
      ? `${step.what} for loan request ${id}`
      : key === 'submitLoanRequest'
        ? `the submission of loan request ${id}`
        : `the approval of loan request ${id}`;
    return { what, check: `loanctl loan show ${id}${product}` };
  }

  private sending<T>(work: Promise<T>): Promise<T> {
    if (this.interrupted) return Promise.reject(new Interrupted());
    return Promise.race([work, this.interruption]);
  }

  /** The error to end with: a cancel becomes exit 130 naming what to run next; the summary first. */
  private stopped(error: unknown): unknown {
    const cancelled = error instanceof CancelledError || (error instanceof Error && error.name === 'ExitPromptError');
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
    const next = this.loan
      ? `Continue with: ${this.resumeCommand()}`
      : this.borrower
        ? `Start again with: loanctl loan new (the borrower ${this.borrower.email ?? this.borrower.id} is there now)`
        : undefined;
    if (!cancelled) {
      if (next) err.write(`${next}\n`);
      return error;
    }
    return new CancelledError('Cancelled.', next);
  }

  private resumeCommand(): string {
    const product = this.productFlag === undefined ? '' : ` --product ${this.productFlag}`;
    return `loanctl loan new --resume ${this.loanId}${product}`;
  }

  private lines(id: StepId): string[] {
    return this.done.get(id) as string[];
  }

  private showParts(): void {
    for (const step of STEPS) {
      const lines = this.lines(step.id);
      // On --resume, what the API does not show back may have been added by an earlier run.
      const none = this.resumed && !step.shownBack ? 'not known (the API does not show it back)' : '—';
      this.row(step.id === 'guarantor' || step.id === 'document' ? `${step.title}s` : step.title, lines[0] ?? none);
      for (const line of lines.slice(1)) this.row('', line);
    }
  }

  private row(label: string, value: string): void {
    this.say(`  ${label.padEnd(22)}${value}`);
  }

  private say(line: string): void {
    this.deps.io.stderr.write(`${line}\n`);
  }
}

const RATE_TYPE_HELP: Record<RateType, string> = {
  'simple-interest': 'flat: rate% of the principal per tenure unit, for the whole tenure',
  'compound-interest': 'reducing balance: equal instalments, interest on what is still owed',
  'fixed-amount': 'the rate is the interest in currency for the whole loan',
};

function describeApproval(terms: BodyOf<'approveLoanRequest'>): string {
  return summariseTerms(repaymentTermsFromApproval(terms));
}

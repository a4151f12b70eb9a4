/**
 * One soak client (test/load/soak.load.ts): the spec's whole origination flow, over and over, on a
 * sandbox that is killed and restarted under it. Each round: create a borrower, find its id
 * through the user list (the create reply has none, spec 2.2), create a loan request, add bank
 * details, business information, employment, a guarantor and a document, submit, approve, and read
 * it back.
 *
 * What the client does when the sandbox is down, and what it records:
 * - a request that never reached the server is sent again once the sandbox is back;
 * - a write with no complete answer is *unknown*: never counted as acknowledged. It is sent again
 *   where repeating cannot make a second row the soak forbids: a borrower (the same e-mail answers
 *   `exists`), employment (a second add answers the spec's "already added" error), and the writes
 *   that may add a row (bank details, guarantor, document) or set a state (business, submit,
 *   approve). A loan request whose create got no answer is left: repeating it could make two, so
 *   that round ends there;
 * - a write is *acknowledged* when a success envelope came back (or `exists`/"already added" to
 *   a repeat of an unknown one): the ledger keeps it, and the soak checks it is all there at the end;
 * - any reply that is not the API's envelope, or an envelope the flow does not allow at that
 *   step, is recorded as such (both must stay empty).
 */
import { stageDef } from '../../src/contract/states.js';
import { sampleBody } from '../helpers/sandbox.js';
import type { Outcome, Request, Sender } from './soak-senders.js';

/** The acknowledged writes of one round: what must be in the database after the last restart. */
export interface Round {
  email: string;
  userId?: number;
  loanId?: number;
  /** Writes answered with success (or its repeat's equivalent), by operation key. */
  acked: Set<string>;
}

export interface Ledger {
  rounds: Round[];
  completed: number;
  /** Requests sent, by how they ended. */
  requests: { replies: number; notSent: number; unknown: number };
  /** Rounds given up because a loan request create got no answer. */
  abandoned: number;
  /** Replies that were not the API's envelope. */
  nonEnvelope: string[];
  /** Envelopes the flow does not allow at that step, and read-backs that disagree with what was acknowledged. */
  unexpected: string[];
}

export function newLedger(): Ledger {
  return {
    rounds: [],
    completed: 0,
    requests: { replies: 0, notSent: 0, unknown: 0 },
    abandoned: 0,
    nonEnvelope: [],
    unexpected: [],
  };
}

export interface FlowContext {
  sender: Sender;
  ledger: Ledger;
  orgId: number;
  /** True once the soak is over: the client stops at its next request. */
  stopped(): boolean;
  /** Shared by every client: a page of the user list at or before the newest users (ids only grow). */
  userPage: { hint: number };
}

/** Thrown to end the client's loop when the soak stops. */
class Stopped extends Error {}

const PAUSE_MS = 100;
const pause = () => new Promise((resolve) => setTimeout(resolve, PAUSE_MS));

type Acceptable = (reply: Extract<Outcome, { kind: 'reply' }>, repeated: boolean) => boolean;
const success: Acceptable = (reply) => reply.http === 200 && reply.envelope?.status === 'success';

/**
 * Sends until a reply comes: a request that never reached the server, or a safe one whose outcome
 * is unknown, is sent again after a pause. Returns the reply if the flow accepts it, or undefined
 * (the round ends: an unknown unsafe write, or a reply the flow does not allow, already recorded).
 */
async function exchange(
  ctx: FlowContext,
  request: Request,
  options: { repeatable: boolean; accept?: Acceptable },
): Promise<Extract<Outcome, { kind: 'reply' }> | undefined> {
  const accept = options.accept ?? success;
  let repeated = false;
  for (;;) {
    if (ctx.stopped()) throw new Stopped();
    const outcome = await ctx.sender.send(request);
    if (outcome.kind === 'not-sent') {
      ctx.ledger.requests.notSent++;
      await pause();
      continue;
    }
    if (outcome.kind === 'unknown') {
      ctx.ledger.requests.unknown++;
      if (!options.repeatable) return undefined;
      repeated = true;
      await pause();
      continue;
    }
    ctx.ledger.requests.replies++;
    const what = `${ctx.sender.via} ${request.key}${repeated ? ' (repeated)' : ''}: HTTP ${outcome.http}`;
    if (!outcome.envelope) {
      ctx.ledger.nonEnvelope.push(`${what} ${outcome.body.slice(0, 200)}`);
      return undefined;
    }
    if (!accept(outcome, repeated)) {
      ctx.ledger.unexpected.push(`${what} ${JSON.stringify(outcome.envelope).slice(0, 300)}`);
      return undefined;
    }
    return outcome;
  }
}

/** The borrower's id, from the user list; a walk from the shared hint page, then from page 1. */
async function findUserId(ctx: FlowContext, email: string): Promise<number | undefined> {
  for (const first of [Math.max(1, ctx.userPage.hint - 1), 1]) {
    for (let page = first; ; page++) {
      const reply = await exchange(ctx, { key: 'listUsers', query: { pages: page } }, { repeatable: true });
      if (!reply) return undefined;
      const users = reply.envelope?.data as Array<{ id: number; email: string }>;
      if (users.length === 0) break;
      const found = users.find((user) => user.email === email);
      if (found) {
        ctx.userPage.hint = Math.max(ctx.userPage.hint, page);
        return found.id;
      }
    }
  }
  ctx.ledger.unexpected.push(`${ctx.sender.via}: acknowledged borrower ${email} is not in the user list`);
  return undefined;
}

/** A write of the round; true when acknowledged (and recorded in the round). */
async function write(ctx: FlowContext, round: Round, request: Request, accept?: Acceptable): Promise<boolean> {
  const reply = await exchange(ctx, request, { repeatable: true, ...(accept && { accept }) });
  if (reply) round.acked.add(request.key);
  return reply !== undefined;
}

async function oneRound(ctx: FlowContext, round: Round): Promise<void> {
  const user = { ...(sampleBody('createUser', ctx.orgId) as object), email: round.email };
  // A repeat of a create whose answer was lost finds the borrower there: `exists`, no second row.
  const created = await write(
    ctx,
    round,
    { key: 'createUser', body: user },
    (reply, repeated) => success(reply, repeated) || (repeated && reply.envelope?.status === 'exists'),
  );
  if (!created) return;
  round.userId = await findUserId(ctx, round.email);
  if (round.userId === undefined) return;

  const loan = await exchange(
    ctx,
    { key: 'createLoanRequest', params: { user_id: round.userId }, body: sampleBody('createLoanRequest', ctx.orgId) },
    { repeatable: false },
  );
  if (!loan) {
    ctx.ledger.abandoned++;
    return;
  }
  round.acked.add('createLoanRequest');
  round.loanId = (loan.envelope?.data as { id: number } | undefined)?.id;
  if (round.loanId === undefined) return;
  const id = { id: round.loanId };

  const attach = (key: Request['key'], accept?: Acceptable) =>
    write(ctx, round, { key, params: id, body: sampleBody(key, ctx.orgId) }, accept);
  if (!(await attach('addBankDetails'))) return;
  if (!(await attach('addBusinessInfo'))) return;
  // A repeat of an add whose answer was lost is told it was already added (spec 4.17): it is there.
  const alreadyAdded: Acceptable = (reply, repeated) =>
    success(reply, repeated) ||
    (repeated && reply.envelope?.status === 'error' && /already added/i.test(reply.envelope.message));
  if (!(await attach('addEmployment', alreadyAdded))) return;
  if (!(await attach('addGuarantor'))) return;
  if (!(await attach('uploadDocument'))) return;
  if (!(await write(ctx, round, { key: 'submitLoanRequest', params: id }))) return;
  const approve: Request = {
    key: 'approveLoanRequest',
    params: id,
    query: { action: 'approve' },
    body: sampleBody('approveLoanRequest', ctx.orgId),
  };
  if (!(await write(ctx, round, approve))) return;

  // Read it back, as `loan show` would: what was acknowledged is what the sandbox says, whatever
  // restarts happened in between.
  const progress = await exchange(ctx, { key: 'getProgress', params: id }, { repeatable: true });
  if (progress && progress.envelope?.data !== stageDef('approved').progress) {
    ctx.ledger.unexpected.push(
      `loan request ${round.loanId}: progress ${JSON.stringify(progress.envelope?.data)} after approval`,
    );
  }
  const employment = await exchange(ctx, { key: 'getEmployment', params: id }, { repeatable: true });
  if (employment && employment.envelope?.data === null) {
    ctx.ledger.unexpected.push(`loan request ${round.loanId}: no employment after it was acknowledged`);
  }
  if (progress && employment) ctx.ledger.completed++;
}

/** Rounds until the soak stops; each round's borrower e-mail is new (`tag` keeps runs apart). */
export async function runClient(ctx: FlowContext, client: number, tag: string): Promise<void> {
  for (let n = 0; ; n++) {
    const round: Round = { email: `soak.${tag}.c${client}.r${n}@soak.example`, acked: new Set() };
    ctx.ledger.rounds.push(round);
    try {
      await oneRound(ctx, round);
    } catch (error) {
      if (error instanceof Stopped) return;
      throw error;
    }
  }
}

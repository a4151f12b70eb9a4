/**
 * The loan request's states (spec section 3), written once: the values each of its three state
 * fields takes, which operation moves a loan request from which stage to which, and what "waiting
 * for approval" means. The sandbox's rules, `loan approve`'s review, `loan queue`, `loan list`'s
 * filters, the dashboard's queue and filters and the OpenAPI document all read it.
 *
 * No zod here (as ./vocabulary.ts): `loan queue` and the review load it.
 */
import { isSetTimestamp, parseTimestamp } from './vocabulary.js';

/** The values each state field is seen with (spec 3: "values seen"; the full set is not shown). */
export const STATE_VALUES = {
  status: ['saved', 'pending'],
  lender_status: ['saved', 'approved'],
  user_status: ['saved', 'submitted'],
} as const;
export type StateField = keyof typeof STATE_VALUES;
export const STATE_FIELDS = Object.keys(STATE_VALUES) as StateField[];

/**
 * The stages an operator speaks of. `created`: saved, not yet submitted by the borrower;
 * `waiting`: submitted, not yet approved (the approval queue); `approved`: a lender approved it.
 * Declining, archiving and disbursing are not in the API this tool speaks (spec 3: "not shown").
 */
export const STAGES = ['created', 'waiting', 'approved'] as const;
export type Stage = (typeof STAGES)[number];

/** The state fields of a loan request, as the API sends them (any case) with their timestamps. */
export interface StatefulLoan {
  status?: unknown;
  lender_status?: unknown;
  user_status?: unknown;
  submitted_at?: unknown;
  approved_at?: unknown;
}

/** The fields a stage is read from: each stage is one value of one field (the latest stage wins). */
const STAGE_MARKS: Readonly<Record<Exclude<Stage, 'created'>, { field: StateField; value: string }>> = {
  waiting: { field: 'user_status', value: 'submitted' },
  approved: { field: 'lender_status', value: 'approved' },
};

/** Which operation moves a loan request into which stage, and what it writes (spec 3's table). */
export const TRANSITIONS = [
  {
    operation: 'createLoanRequest',
    from: [],
    to: 'created',
    writes: { status: 'saved', lender_status: 'saved', user_status: 'saved' },
  },
  {
    operation: 'submitLoanRequest',
    from: ['created'],
    to: 'waiting',
    writes: { status: 'pending', user_status: 'submitted' },
  },
  {
    operation: 'approveLoanRequest',
    from: ['created', 'waiting', 'approved'],
    to: 'approved',
    writes: { lender_status: 'approved' },
  },
] as const satisfies readonly {
  operation: string;
  from: readonly Stage[];
  to: Stage;
  writes: Partial<Record<StateField, string>>;
}[];

const STAGE_WORDS: Record<Stage, string> = {
  created: 'created',
  waiting: 'waiting for approval',
  approved: 'approved',
};

/**
 * The move operation `key` makes, in words, or undefined for one that moves none: `Moves a loan
 * request from created to waiting for approval (status pending, user_status submitted).`
 */
export function transitionText(key: string): string | undefined {
  const move = TRANSITIONS.find((transition) => transition.operation === key);
  if (move === undefined) return undefined;
  const from = move.from.length === 0 ? 'nothing' : move.from.map((stage) => STAGE_WORDS[stage]).join(' or ');
  const writes = Object.entries(move.writes)
    .map(([field, value]) => `${field} ${value}`)
    .join(', ');
  return `Moves a loan request from ${from} to ${STAGE_WORDS[move.to]} (${writes}).`;
}

function marked(loan: StatefulLoan, stage: Exclude<Stage, 'created'>): boolean {
  const { field, value } = STAGE_MARKS[stage];
  return String(loan[field] ?? '').toLowerCase() === value;
}

/** Approved by a lender: its lender status says so, or it carries an approval time. */
export function isApproved(loan: StatefulLoan): boolean {
  return marked(loan, 'approved') || isSetTimestamp(loan.approved_at);
}

/** Submitted by the borrower at some point: its user status says so, or it carries a submission time. */
export function wasSubmitted(loan: StatefulLoan): boolean {
  return marked(loan, 'waiting') || isSetTimestamp(loan.submitted_at);
}

/** The stage a loan request is in. */
function stageOf(loan: StatefulLoan): Stage {
  if (isApproved(loan)) return 'approved';
  return wasSubmitted(loan) ? 'waiting' : 'created';
}

/** Waiting for approval: submitted by the borrower, not yet approved — what the queue holds. */
export function isWaiting(loan: StatefulLoan): boolean {
  return stageOf(loan) === 'waiting';
}

/**
 * "Waiting" as an SQL condition on the sandbox's loan_requests table (aliased `alias`): the same
 * marks as isWaiting (the sandbox writes the timestamps with the state fields, so the fields
 * suffice). The dashboard's queue reads it; its index (migration 7) has the same condition.
 */
export function waitingSql(alias: string): string {
  const { waiting, approved } = STAGE_MARKS;
  return `${alias}.${waiting.field} = '${waiting.value}' AND ${alias}.${approved.field} <> '${approved.value}'`;
}

/**
 * The queue's one order, everywhere: the oldest submission first, ties by id. Returns a negative
 * number when `a` comes first.
 */
export function queueOrder(a: { id: number; submitted_at: string }, b: { id: number; submitted_at: string }): number {
  return instant(a.submitted_at) - instant(b.submitted_at) || a.id - b.id;
}

/** A timestamp's milliseconds; one that is not a time sorts last. */
function instant(stamp: string): number {
  return parseTimestamp(stamp)?.getTime() ?? Number.POSITIVE_INFINITY;
}

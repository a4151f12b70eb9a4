/**
 * The loan request's state machine (spec section 3), derived from the state table
 * (./table/stages.ts): the stages and what marks each, and for every operation on a loan request
 * the stages it may start from and the move it makes. The sandbox enforces and applies it
 * (src/sandbox/stage-moves.ts); `loan wait --until`, `loan list --stage`, `loan find --stage`,
 * `loan queue`, `loan approve`'s review, the dashboard's stage column, filters and queue, the
 * progress markers, the OpenAPI document and the docs' table of stages all read it.
 *
 * No zod here (as ./vocabulary.ts): `loan queue` and the review load it.
 */
import type { ErrorName, OPERATIONS, OperationKey } from './operations.js';
import { OPERATION_STAGES, STAGE_ROWS } from './table/stages.js';
import { isSetTimestamp, parseTimestamp } from './vocabulary.js';

/** The values each state field is seen with (spec 3: "values seen"; the full set is not shown). */
export const STATE_VALUES = {
  status: ['saved', 'pending'],
  lender_status: ['saved', 'approved'],
  user_status: ['saved', 'submitted'],
} as const;
export type StateField = keyof typeof STATE_VALUES;
export const STATE_FIELDS = Object.keys(STATE_VALUES) as StateField[];

/** What tells a stage apart: a state field's value, a set timestamp, or a true flag (a column). */
type Mark = { field: StateField; value: string } | { timestamp: string } | { flag: string };

/** One stage: its name, its words for people, a line of help, what marks it, the progress marker it sets. */
export interface StageDef {
  name: string;
  words: string;
  help: string;
  /** Another word an operator may type for it (`submitted` for `waiting`). */
  alias?: string;
  /** None: the first stage, where every loan request starts. */
  marks: readonly Mark[];
  progress?: string;
}

export type Stage = (typeof STAGE_ROWS)[number]['name'];
/** The stage names, in order. */
export const STAGES: readonly Stage[] = STAGE_ROWS.map((row) => row.name);
/** Where every loan request starts. */
export const FIRST_STAGE: Stage = STAGE_ROWS[0].name;
const STAGE_DEFS: readonly StageDef[] = STAGE_ROWS;

type Rows = (typeof OPERATIONS)[number];
/** The operations that address one loan request (`:id` in their path). */
type LoanOperationKey = Rows extends infer R
  ? R extends { key: infer K; pathParams: readonly (infer P)[] }
    ? 'id' extends P
      ? K
      : never
    : never
  : never;

/** The move an operation makes: the stage it leads to, and the state fields it writes beside that stage's marks. */
interface Move {
  to: Stage;
  writes?: Partial<Record<StateField, string>>;
  /** A loan request that already carries a mark of `to` is answered as it is, nothing written. */
  again?: 'unchanged';
}

/** Where an operation may start: any stage, or only some, refused elsewhere with one of its own error replies. */
type Starts<K extends OperationKey> = { from: 'any stage' } | { from: readonly Stage[]; refusal: ErrorName<K> };
type Row<K extends OperationKey> = Starts<K> & (Move | { to?: never });

/** The state table's type: every operation on a loan request has a row; a creating operation has one from nothing. */
export type StateTable = { [K in LoanOperationKey]: Row<K> } & {
  [K in Exclude<OperationKey, LoanOperationKey>]?: { from: 'nothing' } & Move;
};

/** A row as read at run time (the recipe test adds rows the compiled types do not know). */
export interface StateRow {
  from: 'any stage' | 'nothing' | readonly Stage[];
  refusal?: string;
  to?: Stage;
  writes?: Partial<Record<StateField, string>>;
  again?: 'unchanged';
}
const ROWS = OPERATION_STAGES as Readonly<Record<string, StateRow>>;

/** The state table's row of an operation, or undefined for one that addresses no loan request. */
export function stateRow(key: string): StateRow | undefined {
  return ROWS[key];
}

/** The stages `key` may start from: every stage unless its row names some. */
export function startStages(key: string): readonly Stage[] {
  const from = ROWS[key]?.from;
  return from === undefined || from === 'any stage' ? STAGES : from === 'nothing' ? [] : from;
}

/** The moves of the state table, in its order: what the OpenAPI examples' journey walks. */
export const TRANSITIONS = Object.entries(ROWS).flatMap(([operation, row]) =>
  row.to === undefined ? [] : [{ operation, from: startStages(operation), to: row.to, writes: row.writes ?? {} }],
);

export function stageDef(stage: Stage): StageDef {
  return STAGE_DEFS[STAGES.indexOf(stage)] as StageDef;
}

/** A stage as people say it: `waiting for approval`. */
export function stageWords(stage: Stage): string {
  return stageDef(stage).words;
}

/** The words an operator may type for a stage (names and aliases), for help and completion. */
export const STAGE_CHOICES: readonly string[] = STAGE_DEFS.flatMap((def) =>
  def.alias === undefined ? [def.name] : [def.name, def.alias],
);

/** The stage a typed word names (any case, name or alias), or undefined. */
export function parseStage(raw: string): Stage | undefined {
  const word = raw.trim().toLowerCase();
  return STAGE_DEFS.find((def) => def.name === word || def.alias === word)?.name as Stage | undefined;
}

/** The state fields a mark of each stage sets, in words: `user_status submitted` (`submitted_at set`). */
function markText(mark: Mark): string {
  if ('field' in mark) return `${mark.field} ${mark.value}`;
  return 'timestamp' in mark ? `${mark.timestamp} set` : `${mark.flag} true`;
}

/** How a stage is recognised, in words: `user_status submitted or submitted_at set`; the first stage: `none of the later marks`. */
export function marksText(stage: Stage): string {
  const { marks } = stageDef(stage);
  return marks.length === 0 ? 'none of the later marks' : marks.map(markText).join(' or ');
}

/**
 * The move operation `key` makes, in words, or undefined for one that moves none: `Moves a loan
 * request from created to approved (lender_status approved).`
 */
export function transitionText(key: string): string | undefined {
  const row = ROWS[key];
  if (row?.to === undefined) return undefined;
  const from =
    row.from === 'nothing' ? 'nothing' : row.from === 'any stage' ? 'any stage' : row.from.map(stageWords).join(' or ');
  const fields = { ...row.writes, ...Object.fromEntries(fieldMarks(row.to).map((mark) => [mark.field, mark.value])) };
  const writes = Object.entries(fields).map(([field, value]) => `${field} ${value}`);
  const words = writes.length > 0 ? ` (${writes.join(', ')})` : '';
  const again = row.again === 'unchanged' ? `; one with ${marksText(row.to)} is answered as it is` : '';
  return `Moves a loan request from ${from} to ${stageWords(row.to)}${words}${again}.`;
}

/** Anything with a loan request's fields, as the API sends them (any case) or the sandbox stores them. */
export type StatefulLoan = object;

function carries(loan: StatefulLoan, mark: Mark): boolean {
  const record = loan as Record<string, unknown>;
  if ('field' in mark) return String(record[mark.field] ?? '').toLowerCase() === mark.value;
  if ('timestamp' in mark) return isSetTimestamp(record[mark.timestamp]);
  return record[mark.flag] === true || record[mark.flag] === 1;
}

/** Whether the loan request carries one of `stage`'s own marks (the first stage: always). */
export function carriesStage(loan: StatefulLoan, stage: Stage): boolean {
  const { marks } = stageDef(stage);
  return marks.length === 0 || marks.some((mark) => carries(loan, mark));
}

/** The stage a loan request is in: the latest one whose marks it carries. */
export function stageOf(loan: StatefulLoan): Stage {
  return STAGES.findLast((stage) => carriesStage(loan, stage)) ?? FIRST_STAGE;
}

/** Whether the loan request is in `stage` or a later one. */
export function hasReached(loan: StatefulLoan, stage: Stage): boolean {
  return STAGES.indexOf(stageOf(loan)) >= STAGES.indexOf(stage);
}

/** Approved by a lender (or further on). */
export function isApproved(loan: StatefulLoan): boolean {
  return hasReached(loan, 'approved');
}

/** Submitted by the borrower at some point: it carries a mark of `waiting`, whatever came after. */
export function wasSubmitted(loan: StatefulLoan): boolean {
  return carriesStage(loan, 'waiting');
}

/** Waiting for approval: submitted by the borrower, not yet approved — what the queue holds. */
export function isWaiting(loan: StatefulLoan): boolean {
  return stageOf(loan) === 'waiting';
}

/**
 * The error reply's name when `key` may not start from the loan request's stage, else undefined.
 * The sandbox answers it with the operation's own reply (src/sandbox/stage-moves.ts).
 */
export function refusalFor(key: string, loan: StatefulLoan): string | undefined {
  const row = ROWS[key];
  if (row === undefined || !Array.isArray(row.from)) return undefined;
  return row.from.includes(stageOf(loan)) ? undefined : row.refusal;
}

/** The progress markers the stages set, in order: an operation's own marker never replaces one of them. */
const STAGE_PROGRESS: readonly string[] = STAGE_DEFS.flatMap((def) =>
  def.progress === undefined ? [] : [def.progress],
);

/** The progress marker after reaching `stage`: its own, unless the loan request's marker is a later stage's. */
export function progressAfter(stage: Stage, current: string | null | undefined): string | undefined {
  const own = stageDef(stage).progress;
  if (own === undefined) return current ?? undefined;
  const at = (marker: string | null | undefined) => (marker == null ? -1 : STAGE_PROGRESS.indexOf(marker));
  return at(current) > at(own) ? (current as string) : own;
}

/** The marker after adding supporting information (`marker`): a stage's marker stays as it is. */
export function informationProgress(current: string | null, marker: string): string {
  return current !== null && STAGE_PROGRESS.includes(current) ? current : marker;
}

/**
 * The columns a move to `stage` sets on the sandbox's loan_requests row, with `writes` and the
 * time: each field mark's value, each timestamp mark `now`, each flag 1.
 */
export function moveColumns(stage: Stage, writes: StateRow['writes'], now: string): Record<string, string | number> {
  const columns: Record<string, string | number> = { ...writes };
  for (const mark of stageDef(stage).marks) {
    if ('field' in mark) columns[mark.field] = mark.value;
    else if ('timestamp' in mark) columns[mark.timestamp] = now;
    else columns[mark.flag] = 1;
  }
  return columns;
}

function fieldMarks(stage: Stage): { field: StateField; value: string }[] {
  return stageDef(stage).marks.filter((mark): mark is { field: StateField; value: string } => 'field' in mark);
}

/**
 * A stage's marks as SQL conditions on the sandbox's loan_requests table (aliased `alias`): its
 * state fields when it has some (the sandbox writes a stage's timestamps with its fields, so the
 * fields suffice), else its other marks.
 */
function markSql(alias: string, stage: Stage, negated: boolean): string[] {
  const marks: readonly Mark[] = fieldMarks(stage).length > 0 ? fieldMarks(stage) : stageDef(stage).marks;
  return marks.map((mark) => {
    if ('field' in mark) return `${alias}.${mark.field} ${negated ? '<>' : '='} '${mark.value}'`;
    if ('timestamp' in mark) return `${alias}.${mark.timestamp} IS ${negated ? '' : 'NOT '}NULL`;
    return `coalesce(${alias}.${mark.flag}, 0) ${negated ? '=' : '<>'} 0`;
  });
}

/**
 * "In `stage`" as an SQL condition on the sandbox's loan_requests table (aliased `alias`): one of
 * its marks and none of a later stage's. The dashboard's queue and stage filter read it; the
 * queue's index (migration 7) has the same condition for `waiting`.
 */
export function stageSql(alias: string, stage: Stage): string {
  const own = markSql(alias, stage, false);
  const conditions = own.length > 1 ? [`(${own.join(' OR ')})`] : own;
  for (const later of STAGES.slice(STAGES.indexOf(stage) + 1)) conditions.push(...markSql(alias, later, true));
  return conditions.length === 0 ? '1' : conditions.join(' AND ');
}

/** "Waiting for approval" as SQL: what the queue holds. */
export function waitingSql(alias: string): string {
  return stageSql(alias, 'waiting');
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

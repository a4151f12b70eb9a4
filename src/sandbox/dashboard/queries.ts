/**
 * The dashboard's list reads, each bound to the caller's organisation in its SQL (as every
 * repository read of the API is): an organisation sees only its own borrowers and loan requests.
 *
 * Every list is read by keyset (docs/architecture.md#the-sandbox): a page starts after the last row of the one before
 * (`after`, an id), never at an OFFSET, and each order has an index that matches it (migration 7):
 * the first page and the last cost the same at a thousand rows and at a million.
 * - borrowers: newest first (id descending); searched by the start of their e-mail (any case), in
 *   the e-mail's order, on the index of (organisation, lower-case e-mail) that keeps e-mails unique;
 *   or by phone, in any form an operator types (src/contract/vocabulary.ts phoneLookedFor), newest
 *   first, on the index of (organisation, phone) (migration 10);
 * - loan requests: newest first, filtered by stage and any of the state fields (src/contract/states.ts): one
 *   seek of the index of all three fields (migration 9) per combination of their values that agrees
 *   with the filters, the seeks merged in id order;
 * - the queue: the loan requests waiting for approval, oldest submission first — the one order
 *   of the queue everywhere (`loan queue` too).
 */
import type { DatabaseSync } from 'node:sqlite';
import {
  STAGES,
  STATE_FIELDS,
  STATE_VALUES,
  type Stage,
  type StateField,
  stageSql,
  waitingSql,
} from '../../contract/states.js';
import { phoneLookedFor } from '../../contract/vocabulary.js';
import { LIMIT_PARAM } from '../db.js';
import type { LoanRequestRow, UserRow } from '../repos/index.js';
import { LOAN_REQUEST_VIEW } from '../repos/loan-requests.js';
import { prepareRows, type RowStatement } from '../repos/rows.js';
import { USER_COLUMNS } from '../repos/users.js';

export const PAGE_SIZE = 20;

/** The filters of the loan list: a stage, and each state field's value. */
export type LoanFilters = Partial<Record<StateField | 'stage', string>>;

/** The values each filter offers: the state table's stages and the values its fields are seen with. */
export const FILTER_VALUES: Readonly<Record<keyof LoanFilters, readonly string[]>> = { stage: STAGES, ...STATE_VALUES };

/** A page of rows, and the `after` of the next page when one follows. */
export interface Page<T> {
  rows: T[];
  next: number | undefined;
}

/** No `after`: the first page (ids are positive, so every id is below it). */
const FROM_THE_START = Number.MAX_SAFE_INTEGER;

export class DashboardQueries {
  private readonly borrowers: RowStatement<UserRow>;
  private readonly borrowersByEmail: RowStatement<UserRow>;
  private readonly borrowersByEmailAfter: RowStatement<UserRow>;
  private readonly borrowersByPhone: RowStatement<UserRow>;
  private readonly queue: RowStatement<LoanRequestRow>;
  /** One statement per set of filters given, so that each can use its index (made when first asked). */
  private readonly loans = new Map<string, RowStatement<LoanRequestRow>>();

  constructor(private readonly db: DatabaseSync) {
    const borrowers = `SELECT ${USER_COLUMNS} FROM users WHERE org_id = :org_id AND id < :after`;
    this.borrowers = prepareRows(db, `${borrowers} ORDER BY id DESC ${LIMIT_PARAM}`);
    // lower(email) as the index users_org_email writes it; the page after `after` starts past its e-mail.
    const byEmail = `SELECT ${USER_COLUMNS} FROM users WHERE org_id = :org_id AND lower(email) < :below`;
    const inEmailOrder = `ORDER BY lower(email) ${LIMIT_PARAM}`;
    this.borrowersByEmail = prepareRows(db, `${byEmail} AND lower(email) >= :from ${inEmailOrder}`);
    this.borrowersByEmailAfter = prepareRows(
      db,
      `${byEmail} AND lower(email) > (SELECT lower(email) FROM users WHERE org_id = :org_id AND id = :after) ${inEmailOrder}`,
    );
    // After the row `after` in (submitted_at, id) order; the first page starts before every row.
    this.queue = prepareRows(
      db,
      `${LOAN_REQUEST_VIEW}
        WHERE lr.org_id = :org_id AND lr.deleted_at IS NULL AND ${waitingSql('lr')}
          AND (lr.submitted_at, lr.id) > (SELECT ifnull(max(submitted_at), ''), ifnull(max(id), 0) FROM loan_requests WHERE id = :after)
        ORDER BY lr.submitted_at, lr.id ${LIMIT_PARAM}`,
    );
    // Stored phones are all in the normal form (migration 10), so this is a seek of users_org_phone.
    this.borrowersByPhone = prepareRows(db, `${borrowers} AND phone = :phone ORDER BY id DESC ${LIMIT_PARAM}`);
  }

  /**
   * The borrowers `search` finds: all when it is empty, newest first; those with its phone when it
   * reads as one (an e-mail never does: it has an `@`), newest first; else those whose e-mail
   * starts with it (any case), in the e-mail's order.
   */
  borrowerPage(orgId: number, search: string, after: number | undefined): Page<UserRow> {
    const limit = PAGE_SIZE + 1;
    const newest = { org_id: orgId, after: after ?? FROM_THE_START, limit };
    if (search === '') return paged(this.borrowers.all(newest));
    const phone = phoneLookedFor(search);
    if (phone !== undefined) return paged(this.borrowersByPhone.all({ ...newest, phone }));
    const { from, below } = prefixRange(search);
    if (after === undefined) return paged(this.borrowersByEmail.all({ org_id: orgId, from, below, limit }));
    return paged(this.borrowersByEmailAfter.all({ org_id: orgId, after, below, limit }));
  }

  /** Loan requests matching the filters (a stage, each state field's value), newest first. */
  loanPage(orgId: number, filters: LoanFilters, after: number | undefined): Page<LoanRequestRow> {
    const window = { org_id: orgId, after: after ?? FROM_THE_START, limit: PAGE_SIZE + 1 };
    const stage = STAGES.find((name) => name === filters.stage);
    const statement = this.loansFiltered(matchingStates(filters), stage);
    return paged(statement?.all(window) ?? []);
  }

  /** The loan requests waiting for approval, oldest submission first. */
  queuePage(orgId: number, after: number | undefined): Page<LoanRequestRow> {
    return paged(this.queue.all({ org_id: orgId, after: after ?? 0, limit: PAGE_SIZE + 1 }));
  }

  /** The page's statement for these combinations of state values (none: no filter); undefined when none can match. */
  private loansFiltered(
    states: StateValues[] | undefined,
    stage: Stage | undefined,
  ): RowStatement<LoanRequestRow> | undefined {
    if (states?.length === 0) return undefined;
    const key = JSON.stringify([states ?? null, stage ?? null]);
    let statement = this.loans.get(key);
    if (statement === undefined) {
      statement = prepareRows(this.db, loanPageSql(states, stage));
      this.loans.set(key, statement);
    }
    return statement;
  }
}

type StateValues = Record<StateField, string>;

/**
 * Every combination of the state fields' values that agrees with the filters (undefined when none
 * is given). A filter value the state table does not know agrees with none.
 */
function matchingStates(filters: LoanFilters): StateValues[] | undefined {
  if (STATE_FIELDS.every((field) => filters[field] === undefined)) return undefined;
  let states: Partial<StateValues>[] = [{}];
  for (const field of STATE_FIELDS) {
    const given = filters[field];
    const values = FILTER_VALUES[field].filter((value) => given === undefined || value === given);
    states = states.flatMap((state) => values.map((value) => ({ ...state, [field]: value })));
  }
  return states as StateValues[];
}

/**
 * A page of loan requests before `after`, newest first: of the organisation (no states), or of
 * these combinations of state values (and in `stage`), each read by a seek of loan_requests_org_states in id order
 * and merged (a compound SELECT's ORDER BY). The values are the state table's, never a request's.
 */
function loanPageSql(states: StateValues[] | undefined, stage: Stage | undefined): string {
  // A stage's marks, from the state table too.
  const inStage = stage === undefined ? '' : ` AND ${stageSql('loan_requests', stage)}`;
  const listed = `org_id = :org_id AND deleted_at IS NULL AND id < :after${inStage}`;
  const arms = (states ?? [undefined]).map((state) => {
    const equal = state ? STATE_FIELDS.map((field) => ` AND ${field} = '${state[field]}'`).join('') : '';
    return `SELECT id FROM loan_requests WHERE ${listed}${equal}`;
  });
  return `WITH page AS (${arms.join(' UNION ALL ')} ORDER BY id DESC ${LIMIT_PARAM})
    ${LOAN_REQUEST_VIEW} JOIN page ON page.id = lr.id ORDER BY lr.id DESC`;
}

/**
 * The texts that start with `prefix` once lower-cased as SQLite's lower() does (ASCII letters
 * only): those from `from` and below `below`, in SQLite's order of texts (their code points).
 */
function prefixRange(prefix: string): { from: string; below: string } {
  const from = prefix.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
  const points = [...from];
  const last = (points.pop() as string).codePointAt(0) as number;
  // The next code point, past the surrogates (never a character of their own); the last one has no next.
  const next = last === 0xd7ff ? 0xe000 : last + 1;
  const below = next > 0x10ffff ? `${from}\u{10ffff}` : points.join('') + String.fromCodePoint(next);
  return { from, below };
}

/** One more row than a page was read, to know whether another page follows. */
function paged<T extends { id: number }>(rows: T[]): Page<T> {
  const shown = rows.slice(0, PAGE_SIZE);
  return { rows: shown, next: rows.length > PAGE_SIZE ? shown.at(-1)?.id : undefined };
}

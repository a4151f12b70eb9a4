/**
 * The dashboard's list reads, each bound to the caller's organisation in its SQL (as every
 * repository read of the API is): an organisation sees only its own borrowers and loan requests.
 *
 * Every list is read by keyset (docs/architecture.md#the-sandbox): a page starts after the last row of the one before
 * (`after`, an id), never at an OFFSET, and each order has an index that matches it (migration 7):
 * the first page and the last cost the same at a thousand rows and at a million.
 * - borrowers: newest first (id descending);
 * - loan requests: newest first, filtered by any of the state fields (src/contract/states.ts);
 * - the queue: the loan requests waiting for approval, oldest submission first — the one order
 *   of the queue everywhere (`loan queue` too).
 */
import type { DatabaseSync } from 'node:sqlite';
import { STATE_FIELDS, STATE_VALUES, type StateField, waitingSql } from '../../contract/states.js';
import { LIMIT_PARAM } from '../db.js';
import type { LoanRequestRow, UserRow } from '../repos/index.js';
import { LOAN_REQUEST_VIEW } from '../repos/loan-requests.js';
import { prepareRows, type RowStatement } from '../repos/rows.js';
import { USER_COLUMNS } from '../repos/users.js';

export const PAGE_SIZE = 20;

export type LoanFilters = Partial<Record<StateField, string>>;

/** The values each filter offers: the state table's. */
export const FILTER_VALUES = STATE_VALUES;

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
  private readonly queue: RowStatement<LoanRequestRow>;
  /** One statement per set of filters given, so that each can use its index (made when first asked). */
  private readonly loans = new Map<string, RowStatement<LoanRequestRow>>();

  constructor(private readonly db: DatabaseSync) {
    const borrowers = `SELECT ${USER_COLUMNS} FROM users WHERE org_id = :org_id AND id < :after`;
    this.borrowers = prepareRows(db, `${borrowers} ORDER BY id DESC ${LIMIT_PARAM}`);
    this.borrowersByEmail = prepareRows(
      db,
      `${borrowers} AND instr(lower(email), lower(:email)) > 0 ORDER BY id DESC ${LIMIT_PARAM}`,
    );
    // After the row `after` in (submitted_at, id) order; the first page starts before every row.
    this.queue = prepareRows(
      db,
      `${LOAN_REQUEST_VIEW}
        WHERE lr.org_id = :org_id AND lr.deleted_at IS NULL AND ${waitingSql('lr')}
          AND (lr.submitted_at, lr.id) > (SELECT ifnull(max(submitted_at), ''), ifnull(max(id), 0) FROM loan_requests WHERE id = :after)
        ORDER BY lr.submitted_at, lr.id ${LIMIT_PARAM}`,
    );
  }

  /** Borrowers whose e-mail contains `email` (any case; all when empty), newest first. */
  borrowerPage(orgId: number, email: string, after: number | undefined): Page<UserRow> {
    const window = { org_id: orgId, after: after ?? FROM_THE_START, limit: PAGE_SIZE + 1 };
    const rows = email === '' ? this.borrowers.all(window) : this.borrowersByEmail.all({ ...window, email });
    return paged(rows);
  }

  /** Loan requests matching the filters (each a state field's value), newest first. */
  loanPage(orgId: number, filters: LoanFilters, after: number | undefined): Page<LoanRequestRow> {
    const given = STATE_FIELDS.filter((field) => filters[field] !== undefined);
    const params: Record<string, string | number> = { org_id: orgId, after: after ?? FROM_THE_START };
    for (const field of given) params[field] = filters[field] as string;
    return paged(this.loansFiltered(given).all({ ...params, limit: PAGE_SIZE + 1 }));
  }

  /** The loan requests waiting for approval, oldest submission first. */
  queuePage(orgId: number, after: number | undefined): Page<LoanRequestRow> {
    return paged(this.queue.all({ org_id: orgId, after: after ?? 0, limit: PAGE_SIZE + 1 }));
  }

  private loansFiltered(fields: readonly StateField[]): RowStatement<LoanRequestRow> {
    const key = fields.join(',');
    let statement = this.loans.get(key);
    if (statement === undefined) {
      // Field names come from the state table, never from the request; values are parameters.
      const conditions = fields.map((field) => ` AND lr.${field} = :${field}`).join('');
      statement = prepareRows(
        this.db,
        `${LOAN_REQUEST_VIEW}
          WHERE lr.org_id = :org_id AND lr.deleted_at IS NULL AND lr.id < :after${conditions}
          ORDER BY lr.id DESC ${LIMIT_PARAM}`,
      );
      this.loans.set(key, statement);
    }
    return statement;
  }
}

/** One more row than a page was read, to know whether another page follows. */
function paged<T extends { id: number }>(rows: T[]): Page<T> {
  const shown = rows.slice(0, PAGE_SIZE);
  return { rows: shown, next: rows.length > PAGE_SIZE ? shown.at(-1)?.id : undefined };
}

/**
 * The dashboard's list reads, each bound to the caller's organisation in its SQL (as every
 * repository read of the API is): an organisation sees only its own borrowers and loan requests.
 *
 * Every list is read by keyset (design.md): a page starts after the last row of the one before
 * (`after`, an id), never at an OFFSET, and each order has an index that matches it (migration 7):
 * the first page and the last cost the same at a thousand rows and at a million.
 * - borrowers: newest first (id descending); searched by the start of their e-mail (any case), in
 *   the e-mail's order, on the index of (organisation, lower-case e-mail) that keeps e-mails unique;
 * - loan requests: newest first, filtered by any of the state fields (src/contract/states.ts), each
 *   combination of fields with its own index (migration 9);
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
  private readonly borrowersByEmailAfter: RowStatement<UserRow>;
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
  }

  /**
   * Borrowers whose e-mail starts with `email` (any case), in the e-mail's order; all when `email`
   * is empty, newest first.
   */
  borrowerPage(orgId: number, email: string, after: number | undefined): Page<UserRow> {
    const limit = PAGE_SIZE + 1;
    if (email === '') return paged(this.borrowers.all({ org_id: orgId, after: after ?? FROM_THE_START, limit }));
    const { from, below } = prefixRange(email);
    if (after === undefined) return paged(this.borrowersByEmail.all({ org_id: orgId, from, below, limit }));
    return paged(this.borrowersByEmailAfter.all({ org_id: orgId, after, below, limit }));
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

/**
 * The texts that start with `prefix` once lower-cased as SQLite's lower() does (ASCII letters
 * only): those from `from` and below `below`, in SQLite's order of texts (their code points).
 */
export function prefixRange(prefix: string): { from: string; below: string } {
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

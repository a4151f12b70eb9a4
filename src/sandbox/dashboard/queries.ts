/**
 * The dashboard's list reads, each bound to the caller's organisation in its SQL (as every
 * repository read of the API is): an organisation sees only its own borrowers and loan requests.
 * Lists go across the organisation's products, the approval queue first.
 */
import type { DatabaseSync } from 'node:sqlite';
import { LIMIT_PARAM } from '../db.js';
import type { LoanRequestRow, UserRow } from '../repos/index.js';
import { LOAN_REQUEST_VIEW } from '../repos/loan-requests.js';
import { prepareRows, type RowStatement } from '../repos/rows.js';
import { USER_COLUMNS } from '../repos/users.js';

export const PAGE_SIZE = 20;

export interface LoanFilters {
  status?: string;
  lender_status?: string;
  user_status?: string;
}

/** The values each filter offers (the ones the sandbox writes). */
export const FILTER_VALUES: Readonly<Record<keyof LoanFilters, readonly string[]>> = {
  status: ['saved', 'pending'],
  lender_status: ['saved', 'approved'],
  user_status: ['saved', 'submitted'],
};

/** A page of rows and whether another follows. */
export interface Page<T> {
  rows: T[];
  hasNext: boolean;
}

export class DashboardQueries {
  private readonly borrowers: RowStatement<UserRow>;
  private readonly loans: RowStatement<LoanRequestRow>;

  constructor(db: DatabaseSync) {
    this.borrowers = prepareRows(
      db,
      `SELECT ${USER_COLUMNS}
         FROM users
        WHERE org_id = :org_id AND (:email = '' OR instr(lower(email), lower(:email)) > 0)
        ORDER BY id DESC ${LIMIT_PARAM} OFFSET :offset`,
    );
    this.loans = prepareRows(
      db,
      `${LOAN_REQUEST_VIEW}
        WHERE lr.org_id = :org_id AND lr.deleted_at IS NULL
          AND (:status = '' OR lr.status = :status)
          AND (:lender_status = '' OR lr.lender_status = :lender_status)
          AND (:user_status = '' OR lr.user_status = :user_status)
        ORDER BY CASE WHEN lr.user_status = 'submitted' AND lr.lender_status <> 'approved' THEN 0 ELSE 1 END,
                 lr.id DESC
        ${LIMIT_PARAM} OFFSET :offset`,
    );
  }

  /** Borrowers whose e-mail contains `email` (any case; all when empty), newest first. */
  borrowerPage(orgId: number, email: string, page: number): Page<UserRow> {
    const rows = this.borrowers.all({ org_id: orgId, email, ...window(page) });
    return paged(rows);
  }

  /** Loan requests matching the filters: submitted and not yet approved first, then newest first. */
  loanPage(orgId: number, filters: LoanFilters, page: number): Page<LoanRequestRow> {
    const rows = this.loans.all({
      org_id: orgId,
      status: filters.status ?? '',
      lender_status: filters.lender_status ?? '',
      user_status: filters.user_status ?? '',
      ...window(page),
    });
    return paged(rows);
  }
}

/** One more row than a page, to know whether another page follows. */
function window(page: number) {
  return { limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE };
}

function paged<T>(rows: T[]): Page<T> {
  return { rows: rows.slice(0, PAGE_SIZE), hasNext: rows.length > PAGE_SIZE };
}

/** Whether a loan request waits for the lender: submitted, not yet approved. */
export function inQueue(row: Pick<LoanRequestRow, 'user_status' | 'lender_status'>): boolean {
  return row.user_status === 'submitted' && row.lender_status !== 'approved';
}

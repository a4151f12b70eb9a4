import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { BODY_FIELDS } from '../../contract/fields.js';
import { RECORDS, type RowOf } from '../../contract/records.js';
import { OPERATION_STAGES } from '../../contract/table/stages.js';
import { LIMIT_PARAM } from '../db.js';
import { jsonSql, UNSURE } from '../serialize.js';
import { prepareRows, type RowStatement } from './rows.js';

/**
 * A loan request joined with the names the API returns alongside it (LOAN_REQUEST_VIEW): the
 * columns its description says it is filled from (src/contract/records.ts).
 */
export type LoanRequestRow = RowOf<typeof RECORDS.loanRequest>;

export interface NewLoanRequest {
  org_id: number;
  user_id: number;
  product_id: number;
  reference: string;
  amount: number;
  purpose: string;
  now: string;
}

/**
 * The columns an approval sets: one per field of the approval body (its row's `body` in
 * src/contract/table/loan-requests.ts, same names), then the ones the sandbox works out. The type and the UPDATE both read this list.
 */
const APPROVAL_COLUMNS = [
  ...BODY_FIELDS.approveLoanRequest.map((field) => field.name),
  'zero_interest',
  'estimated_repayment',
  'approved_by_id',
  'approved_by',
] as const;

/** The state fields a new loan request starts with: the state table's creating move (src/contract/table/stages.ts). */
const CREATED_STATE = OPERATION_STAGES.createLoanRequest.writes;

/** What an approval stores: those columns of the row, set, and the time. */
export type Approval = { [C in (typeof APPROVAL_COLUMNS)[number]]: NonNullable<LoanRequestRow[C]> } & { now: string };

/** A loan request row (`LoanRequestRow`): the table joined with the names the API returns with it. */
export const LOAN_REQUEST_VIEW = `
  SELECT lr.*, p.name AS product_name, p.slug AS product_slug, o.name AS lender_name,
         u.firstname || ' ' || u.lastname AS fullname
    FROM loan_requests lr
    JOIN products p ON p.id = lr.product_id
    JOIN organisations o ON o.id = lr.org_id
    JOIN users u ON u.id = lr.user_id`;

/** A loan request of a page as SQLite writes its reply (../serialize.ts `jsonSql`): null when it cannot. */
export interface LoanRequestJson {
  id: number;
  json: string | null;
}

export class LoanRequestsRepo {
  private readonly insert: StatementSync;
  private readonly byOrgAndId: RowStatement<LoanRequestRow>;
  private readonly pageAsc: RowStatement<LoanRequestRow>;
  private readonly pageDesc: RowStatement<LoanRequestRow>;
  private readonly pageJsonAsc: RowStatement<LoanRequestJson>;
  private readonly pageJsonDesc: RowStatement<LoanRequestJson>;
  private readonly setPurpose: StatementSync;
  private readonly setDeleted: StatementSync;
  private readonly setProgressStmt: StatementSync;
  /** An UPDATE for each set of columns (setColumns), made when first needed. */
  private readonly moves = new Map<string, StatementSync>();
  private readonly setApproved: StatementSync;
  private readonly setLinkers: StatementSync;

  constructor(private readonly db: DatabaseSync) {
    this.insert = db.prepare(
      `INSERT INTO loan_requests (org_id, user_id, product_id, reference, amount, purpose, status, lender_status,
                                  user_status, active, debit_mandate_next_step, created_at, updated_at)
       VALUES (:org_id, :user_id, :product_id, :reference, :amount, :purpose, :status, :lender_status, :user_status, 1,
               'setup', :now, :now)`,
    );
    this.byOrgAndId = prepareRows(
      db,
      `${LOAN_REQUEST_VIEW} WHERE lr.org_id = ? AND lr.id = ? AND lr.deleted_at IS NULL`,
    );
    const page = `${LOAN_REQUEST_VIEW} WHERE lr.org_id = :org_id AND lr.product_id = :product_id AND lr.deleted_at IS NULL`;
    this.pageAsc = prepareRows(db, `${page} AND lr.id > :cursor ORDER BY lr.id ASC ${LIMIT_PARAM}`);
    this.pageDesc = prepareRows(db, `${page} AND lr.id < :cursor ORDER BY lr.id DESC ${LIMIT_PARAM}`);
    // The same pages, each row's reply written by SQLite from the row's columns (by their names).
    const pageJson = `SELECT id, ${jsonSql(RECORDS.loanRequest)} AS json FROM (${page})`;
    this.pageJsonAsc = prepareRows(db, `${pageJson} WHERE id > :cursor ORDER BY id ASC ${LIMIT_PARAM}`);
    this.pageJsonDesc = prepareRows(db, `${pageJson} WHERE id < :cursor ORDER BY id DESC ${LIMIT_PARAM}`);
    this.setPurpose = db.prepare('UPDATE loan_requests SET purpose = :purpose, updated_at = :now WHERE id = :id');
    this.setDeleted = db.prepare(
      'UPDATE loan_requests SET deleted_at = :now, active = 0, updated_at = :now WHERE id = :id',
    );
    this.setProgressStmt = db.prepare(
      'UPDATE loan_requests SET progress = :progress, updated_at = :now WHERE id = :id',
    );
    this.setApproved = db.prepare(
      `UPDATE loan_requests
          SET ${APPROVAL_COLUMNS.map((column) => `${column} = :${column}`).join(', ')},
              final_approval_date = :now, updated_at = :now
        WHERE id = :id`,
    );
    this.setLinkers = db.prepare(
      'UPDATE loan_requests SET linker_ids = :linker_ids, linker_tokenized = 1, updated_at = :now WHERE id = :id',
    );
  }

  create(request: NewLoanRequest): number {
    return Number(this.insert.run({ ...request, ...CREATED_STATE }).lastInsertRowid);
  }

  /** The loan request, only when it belongs to the organisation and is not deleted. */
  findInOrg(orgId: number, id: number): LoanRequestRow | undefined {
    return this.byOrgAndId.get(orgId, id);
  }

  /** Up to `limit` loan requests of a product after `cursor` in id order (ASC: id > cursor, DESC: id < cursor). */
  page(orgId: number, productId: number, direction: 'ASC' | 'DESC', cursor: number, limit: number): LoanRequestRow[] {
    const stmt = direction === 'ASC' ? this.pageAsc : this.pageDesc;
    return stmt.all({ org_id: orgId, product_id: productId, cursor, limit });
  }

  /** The page `page` gives, each loan request as SQLite writes its reply. */
  pageJson(
    orgId: number,
    productId: number,
    direction: 'ASC' | 'DESC',
    cursor: number,
    limit: number,
  ): LoanRequestJson[] {
    const stmt = direction === 'ASC' ? this.pageJsonAsc : this.pageJsonDesc;
    const rows = stmt.all({ org_id: orgId, product_id: productId, cursor, limit });
    for (const row of rows) if (row.json?.includes(UNSURE)) row.json = null;
    return rows;
  }

  updatePurpose(id: number, purpose: string, now: string): void {
    this.setPurpose.run({ id, purpose, now });
  }

  softDelete(id: number, now: string): void {
    this.setDeleted.run({ id, now });
  }

  setProgress(id: number, progress: string, now: string): void {
    this.setProgressStmt.run({ id, progress, now });
  }

  /**
   * Sets `columns`: a move's (src/sandbox/stage-moves.ts) or a handler's. Their names come from
   * the contract (the state table, a body field's name), never from a request; values are parameters.
   */
  setColumns(id: number, columns: Record<string, string | number>, now: string): void {
    const names = Object.keys(columns);
    const key = names.join(',');
    let statement = this.moves.get(key);
    if (statement === undefined) {
      const sets = names.map((name) => `${name} = :${name}`).join(', ');
      statement = this.db.prepare(`UPDATE loan_requests SET ${sets}, updated_at = :now WHERE id = :id`);
      this.moves.set(key, statement);
    }
    statement.run({ ...columns, id, now });
  }

  approve(id: number, approval: Approval): void {
    this.setApproved.run({ id, ...approval });
  }

  tokenize(id: number, linkerIds: readonly string[], now: string): void {
    this.setLinkers.run({ id, linker_ids: JSON.stringify(linkerIds), now });
  }
}

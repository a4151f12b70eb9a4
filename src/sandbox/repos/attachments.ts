/**
 * The supporting information of a loan request: bank details, business information, employment,
 * guarantors and documents. Each row carries the loan request's org_id and user_id, so every read
 * is scoped by the loan request that the caller was already found to own.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { RECORDS, type RecordSpec, type RowOf, storedColumns } from '../../contract/records.js';
import { insertInto, prepareRows, type RowStatement } from './rows.js';

/** The columns that tie an attached record to its loan request, borrower and organisation. */
export interface Owned {
  org_id: number;
  user_id: number;
  loan_request_id: number;
}

// Each record as stored: the columns its description says it is filled from (src/contract/records.ts).
export type BankDetailsRow = RowOf<typeof RECORDS.bankDetails>;
export type BusinessRow = RowOf<typeof RECORDS.business>;
export type EmploymentRow = RowOf<typeof RECORDS.employment>;
export type GuarantorRow = RowOf<typeof RECORDS.guarantor>;
export type DocumentRow = RowOf<typeof RECORDS.document>;

type Insert<Row> = Omit<Row, 'id' | 'created_at' | 'updated_at'> & { now: string };

/** The columns of `Owned`: a record's ties, kept when a second add replaces its fields. */
const OWNER_COLUMNS: ReadonlySet<string> = new Set(['org_id', 'user_id', 'loan_request_id'] satisfies (keyof Owned)[]);

/** A new record's columns: every stored one but its id (SQLite's) and those set later (`omit`). */
function insertedColumns(record: RecordSpec, ...omit: string[]): string[] {
  return storedColumns(record).filter((column) => column !== 'id' && !omit.includes(column));
}

export class AttachmentsRepo {
  private readonly insertBank: StatementSync;
  private readonly bankByLr: RowStatement<BankDetailsRow>;
  private readonly setLinker: StatementSync;
  private readonly upsertBusiness: StatementSync;
  private readonly businessByLr: RowStatement<BusinessRow>;
  private readonly insertEmployment: StatementSync;
  private readonly employmentByLr: RowStatement<EmploymentRow>;
  private readonly insertGuarantor: StatementSync;
  private readonly guarantorsByLr: RowStatement<GuarantorRow>;
  private readonly insertDocument: StatementSync;
  private readonly documentsByLr: RowStatement<DocumentRow>;
  private readonly supportCount: StatementSync;

  constructor(db: DatabaseSync) {
    this.insertBank = db.prepare(insertInto('bank_details', insertedColumns(RECORDS.bankDetails, 'linker_id')));
    this.bankByLr = prepareRows(db, 'SELECT * FROM bank_details WHERE loan_request_id = ? ORDER BY id');
    this.setLinker = db.prepare('UPDATE bank_details SET linker_id = :linker_id, updated_at = :now WHERE id = :id');
    const businessColumns = insertedColumns(RECORDS.business);
    const replaced = businessColumns.filter((column) => !OWNER_COLUMNS.has(column) && column !== 'created_at');
    this.upsertBusiness = db.prepare(
      `${insertInto('business_info', businessColumns)}
       ON CONFLICT (loan_request_id) DO UPDATE SET ${replaced.map((column) => `${column} = excluded.${column}`).join(', ')}`,
    );
    this.businessByLr = prepareRows(db, 'SELECT * FROM business_info WHERE loan_request_id = ?');
    this.insertEmployment = db.prepare(
      `${insertInto('employment', insertedColumns(RECORDS.employment))} ON CONFLICT (loan_request_id) DO NOTHING`,
    );
    this.employmentByLr = prepareRows(db, 'SELECT * FROM employment WHERE loan_request_id = ?');
    this.insertGuarantor = db.prepare(insertInto('guarantors', insertedColumns(RECORDS.guarantor)));
    this.guarantorsByLr = prepareRows(db, 'SELECT * FROM guarantors WHERE loan_request_id = ? ORDER BY id');
    this.insertDocument = db.prepare(insertInto('documents', insertedColumns(RECORDS.document)));
    this.documentsByLr = prepareRows(db, 'SELECT * FROM documents WHERE loan_request_id = ? ORDER BY id');
    this.supportCount = db.prepare(
      `SELECT (SELECT count(*) FROM bank_details WHERE loan_request_id = :id)
            + (SELECT count(*) FROM business_info WHERE loan_request_id = :id)
            + (SELECT count(*) FROM employment WHERE loan_request_id = :id)
            + (SELECT count(*) FROM guarantors WHERE loan_request_id = :id)
            + (SELECT count(*) FROM documents WHERE loan_request_id = :id) AS n`,
    );
  }

  addBankDetails(row: Insert<Omit<BankDetailsRow, 'linker_id'>>): void {
    this.insertBank.run({ ...row });
  }

  bankDetails(loanRequestId: number): BankDetailsRow[] {
    return this.bankByLr.all(loanRequestId);
  }

  setLinkerId(bankDetailsId: number, linkerId: string, now: string): void {
    this.setLinker.run({ id: bankDetailsId, linker_id: linkerId, now });
  }

  /** One business record per loan request: a second add replaces the first's fields. */
  putBusiness(row: Insert<BusinessRow>): void {
    this.upsertBusiness.run({ ...row });
  }

  business(loanRequestId: number): BusinessRow | undefined {
    return this.businessByLr.get(loanRequestId);
  }

  /** Adds the employment record; false when the loan request already has one. */
  addEmployment(row: Insert<EmploymentRow>): boolean {
    return Number(this.insertEmployment.run({ ...row }).changes) === 1;
  }

  employment(loanRequestId: number): EmploymentRow | undefined {
    return this.employmentByLr.get(loanRequestId);
  }

  addGuarantor(row: Insert<GuarantorRow>): void {
    this.insertGuarantor.run({ ...row });
  }

  guarantors(loanRequestId: number): GuarantorRow[] {
    return this.guarantorsByLr.all(loanRequestId);
  }

  addDocument(row: Omit<DocumentRow, 'id' | 'created_at'> & { now: string }): void {
    this.insertDocument.run({ ...row });
  }

  documents(loanRequestId: number): DocumentRow[] {
    return this.documentsByLr.all(loanRequestId);
  }

  /** How many pieces of supporting information the loan request has, of every kind. */
  supportingInformationCount(loanRequestId: number): number {
    return Number((this.supportCount.get({ id: loanRequestId }) as { n: number }).n);
  }
}

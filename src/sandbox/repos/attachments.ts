/**
 * The supporting information of a loan request: bank details, business information, employment,
 * guarantors and documents. Each row carries the loan request's org_id and user_id, so every read
 * is scoped by the loan request that the caller was already found to own.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { RECORDS, RowOf } from '../../contract/records.js';
import { prepareRows, type RowStatement } from './rows.js';

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
    this.insertBank = db.prepare(
      `INSERT INTO bank_details (org_id, user_id, loan_request_id, code, account_number, account_name, bank_name,
                                 created_at, updated_at)
       VALUES (:org_id, :user_id, :loan_request_id, :code, :account_number, :account_name, :bank_name, :now, :now)`,
    );
    this.bankByLr = prepareRows(db, 'SELECT * FROM bank_details WHERE loan_request_id = ? ORDER BY id');
    this.setLinker = db.prepare('UPDATE bank_details SET linker_id = :linker_id, updated_at = :now WHERE id = :id');
    this.upsertBusiness = db.prepare(
      `INSERT INTO business_info (org_id, user_id, loan_request_id, name, role, industry, description, registered,
          registration_number, established_on, physical_location, number_of_locations, location_status,
          average_monthly_income, last_twelve_months_income, primary_payments_collection_method, number_of_employees,
          monthly_salary_cost, annual_rent_cost, monthly_electricity_cost, monthly_ads_cost, monthly_marketing_cost,
          created_at, updated_at)
       VALUES (:org_id, :user_id, :loan_request_id, :name, :role, :industry, :description, :registered,
          :registration_number, :established_on, :physical_location, :number_of_locations, :location_status,
          :average_monthly_income, :last_twelve_months_income, :primary_payments_collection_method,
          :number_of_employees, :monthly_salary_cost, :annual_rent_cost, :monthly_electricity_cost, :monthly_ads_cost,
          :monthly_marketing_cost, :now, :now)
       ON CONFLICT (loan_request_id) DO UPDATE SET
          name = excluded.name, role = excluded.role, industry = excluded.industry,
          description = excluded.description, registered = excluded.registered,
          registration_number = excluded.registration_number, established_on = excluded.established_on,
          physical_location = excluded.physical_location, number_of_locations = excluded.number_of_locations,
          location_status = excluded.location_status, average_monthly_income = excluded.average_monthly_income,
          last_twelve_months_income = excluded.last_twelve_months_income,
          primary_payments_collection_method = excluded.primary_payments_collection_method,
          number_of_employees = excluded.number_of_employees, monthly_salary_cost = excluded.monthly_salary_cost,
          annual_rent_cost = excluded.annual_rent_cost, monthly_electricity_cost = excluded.monthly_electricity_cost,
          monthly_ads_cost = excluded.monthly_ads_cost, monthly_marketing_cost = excluded.monthly_marketing_cost,
          updated_at = excluded.updated_at`,
    );
    this.businessByLr = prepareRows(db, 'SELECT * FROM business_info WHERE loan_request_id = ?');
    this.insertEmployment = db.prepare(
      `INSERT INTO employment (org_id, user_id, loan_request_id, status, company_name, company_address, position, salary,
                               manager, manager_phone, manager_email, created_at, updated_at)
       VALUES (:org_id, :user_id, :loan_request_id, :status, :company_name, :company_address, :position, :salary,
               :manager, :manager_phone, :manager_email, :now, :now)
       ON CONFLICT (loan_request_id) DO NOTHING`,
    );
    this.employmentByLr = prepareRows(db, 'SELECT * FROM employment WHERE loan_request_id = ?');
    this.insertGuarantor = db.prepare(
      `INSERT INTO guarantors (org_id, user_id, loan_request_id, firstname, lastname, gender, relationship, email, phone,
                               created_at, updated_at)
       VALUES (:org_id, :user_id, :loan_request_id, :firstname, :lastname, :gender, :relationship, :email, :phone,
               :now, :now)`,
    );
    this.guarantorsByLr = prepareRows(db, 'SELECT * FROM guarantors WHERE loan_request_id = ? ORDER BY id');
    this.insertDocument = db.prepare(
      `INSERT INTO documents (org_id, user_id, loan_request_id, type, title, reference, number, document_url, created_at)
       VALUES (:org_id, :user_id, :loan_request_id, :type, :title, :reference, :number, :document_url, :now)`,
    );
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

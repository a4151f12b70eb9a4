/** Database rows → the API's JSON shapes (spec section 2). */
import { ZERO_TIMESTAMP } from '../contract/schemas.js';
import type {
  BankDetailsRow,
  BusinessRow,
  DocumentRow,
  EmploymentRow,
  GuarantorRow,
  LoanRequestRow,
  UserRow,
} from './repos/index.js';

/** A set timestamp as stored, an unset one as the API's zero timestamp. */
export function timestamp(value: string | null | undefined): string {
  return value ?? ZERO_TIMESTAMP;
}

/** The create-user reply (spec 2.2): no id. Also what an `exists` reply carries. */
export function userCreateReply(user: UserRow) {
  return {
    firstname: user.firstname,
    lastname: user.lastname,
    email: user.email,
    phone: user.phone,
    gender: user.gender,
    reference: user.reference,
    is_active: user.is_active === 1,
    source: user.source,
    created_at: user.created_at,
    updated_at: user.updated_at,
  };
}

export function userListItem(user: UserRow) {
  return {
    id: user.id,
    org_id: user.org_id,
    firstname: user.firstname,
    lastname: user.lastname,
    email: user.email,
    phone: user.phone,
    gender: user.gender,
    is_active: user.is_active === 1,
    created_at: user.created_at,
    updated_at: user.updated_at,
  };
}

/**
 * A loan request (spec 2.3). Optional fields appear once they are set: `progress` after the first
 * progress marker, `linker_ids`/`linker_tokenized` after tokenizing, `approved_by(_id)` after approval.
 */
export function loanRequest(row: LoanRequestRow) {
  return {
    id: row.id,
    user_id: row.user_id,
    org_id: row.org_id,
    product_id: row.product_id,
    product_name: row.product_name,
    product_slug: row.product_slug,
    lender_name: row.lender_name,
    reference: row.reference,
    fullname: row.fullname,
    amount: row.amount,
    purpose: row.purpose,
    terms: {
      approved_amount: row.approved_amount,
      rate: row.rate,
      tenure: row.tenure,
      tenured_in: row.tenured_in,
      rate_type: row.rate_type,
      grace_period: row.grace_period,
      exclude_weekends: row.exclude_weekends === 1,
      zero_interest: row.zero_interest === 1,
      estimated_repayment: row.estimated_repayment,
      note: row.note,
    },
    status: row.status,
    active: row.active === 1,
    ...(row.progress !== null && { progress: row.progress }),
    lender_status: row.lender_status,
    user_status: row.user_status,
    debit_mandate_next_step: row.debit_mandate_next_step,
    ...(row.linker_ids !== null && { linker_ids: JSON.parse(row.linker_ids) as string[] }),
    ...(row.linker_tokenized !== null && { linker_tokenized: row.linker_tokenized === 1 }),
    ...(row.approved_by_id !== null && { approved_by_id: row.approved_by_id }),
    ...(row.approved_by !== null && { approved_by: row.approved_by }),
    declined_at: ZERO_TIMESTAMP,
    final_approval_date: timestamp(row.final_approval_date),
    approved_at: timestamp(row.approved_at),
    user_accepted_date: ZERO_TIMESTAMP,
    user_declined_date: ZERO_TIMESTAMP,
    archived_date: ZERO_TIMESTAMP,
    unarchived_at: ZERO_TIMESTAMP,
    disbursed_at: ZERO_TIMESTAMP,
    submitted_at: timestamp(row.submitted_at),
    deleted_at: timestamp(row.deleted_at),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function bankDetails(row: BankDetailsRow) {
  return {
    id: row.id,
    user_id: row.user_id,
    org_id: row.org_id,
    loan_request_id: row.loan_request_id,
    // The sandbox has no separate credit orders: a loan request is its own credit order.
    credit_order_id: row.loan_request_id,
    code: row.code,
    account_number: row.account_number,
    account_name: row.account_name,
    bank_name: row.bank_name,
    is_deleted: false,
    has_custom_fields: false,
    custom_fields: null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function business(row: BusinessRow) {
  return {
    id: row.id,
    user_id: row.user_id,
    loan_request_id: row.loan_request_id,
    name: row.name,
    org_id: row.org_id,
    role: row.role,
    industry: row.industry,
    description: row.description,
    registered: row.registered === 1,
    registration_number: row.registration_number,
    established_on: row.established_on,
    physical_location: row.physical_location === 1,
    number_of_locations: row.number_of_locations,
    location_status: row.location_status,
    average_monthly_income: row.average_monthly_income,
    last_twelve_months_income: row.last_twelve_months_income,
    primary_payments_collection_method: row.primary_payments_collection_method,
    number_of_employees: row.number_of_employees,
    monthly_salary_cost: row.monthly_salary_cost,
    annual_rent_cost: row.annual_rent_cost,
    monthly_electricity_cost: row.monthly_electricity_cost,
    monthly_ads_cost: row.monthly_ads_cost,
    monthly_marketing_cost: row.monthly_marketing_cost,
    has_custom_fields: false,
    custom_fields: [],
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function employment(row: EmploymentRow) {
  return {
    id: row.id,
    user_id: row.user_id,
    loan_request_id: row.loan_request_id,
    status: row.status,
    company_name: row.company_name,
    company_address: row.company_address,
    position: row.position,
    salary: row.salary,
    manager: row.manager,
    manager_phone: row.manager_phone,
    manager_email: row.manager_email,
    has_custom_fields: false,
    custom_fields: null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Gender is stored but not returned (spec 2.9). */
export function guarantor(row: GuarantorRow) {
  return {
    id: row.id,
    user_id: row.user_id,
    org_id: row.org_id,
    loan_request_id: row.loan_request_id,
    firstname: row.firstname,
    lastname: row.lastname,
    email: row.email,
    phone: row.phone,
    relationship: row.relationship,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function document(row: DocumentRow) {
  return {
    id: row.id,
    user_id: row.user_id,
    org_id: row.org_id,
    loan_request_id: row.loan_request_id,
    type: row.type,
    title: row.title,
    reference: row.reference,
    number: row.number,
    document_url: row.document_url,
    has_custom_fields: false,
    custom_fields: null,
    created_at: row.created_at,
  };
}

/**
 * The records attached to a loan request (spec 2.5, 2.6, 2.8–2.10), fields in the API's order;
 * ./records.ts says what an entry holds.
 */
import { ATTACHED, describe, ID, OWNER_ID, TEXT, TIMESTAMP, WITH_CUSTOM_FIELDS } from './describe-record.js';

// 2.5 Document
export const DOCUMENT = describe({
  fields: {
    ...ATTACHED,
    type: { kind: 'text', label: 'Type' },
    title: { kind: 'text', label: 'Title' },
    reference: { kind: 'text', label: 'Reference' },
    number: { kind: 'text', label: 'Number' },
    document_url: { kind: 'text', label: 'URL' },
    ...WITH_CUSTOM_FIELDS,
    created_at: { kind: 'timestamp', label: 'Added' },
  },
  table: { noun: 'documents', list: ['id', 'type', 'title', 'number', 'reference', 'document_url', 'created_at'] },
});

// 2.6 Business information. The sandbox stores every field; what the body leaves out, empty or 0.
const WHOLE_MONEY = { kind: 'whole-money', optional: true } as const;
export const BUSINESS = describe({
  fields: {
    id: ID,
    user_id: OWNER_ID,
    loan_request_id: OWNER_ID,
    name: { kind: 'text', label: 'Name' },
    org_id: OWNER_ID,
    role: { kind: 'text', label: 'Role' },
    industry: { kind: 'text', label: 'Industry' },
    description: TEXT,
    registered: { kind: 'bool', label: 'Registered' },
    registration_number: { kind: 'text', optional: true, label: 'Reg. number' },
    established_on: { kind: 'date', optional: true, label: 'Established' },
    physical_location: { kind: 'bool', optional: true },
    number_of_locations: { kind: 'count', optional: true },
    location_status: { kind: 'text', optional: true },
    average_monthly_income: { ...WHOLE_MONEY, label: 'Avg monthly income' },
    last_twelve_months_income: WHOLE_MONEY,
    primary_payments_collection_method: { kind: 'text', optional: true },
    number_of_employees: { kind: 'count', optional: true, label: 'Employees' },
    monthly_salary_cost: WHOLE_MONEY,
    annual_rent_cost: WHOLE_MONEY,
    monthly_electricity_cost: WHOLE_MONEY,
    monthly_ads_cost: WHOLE_MONEY,
    monthly_marketing_cost: WHOLE_MONEY,
    has_custom_fields: WITH_CUSTOM_FIELDS.has_custom_fields,
    // An empty list here, where the other records answer null: as the real service does.
    custom_fields: { ...WITH_CUSTOM_FIELDS.custom_fields, sandbox: { always: [] } },
    created_at: TIMESTAMP,
    updated_at: TIMESTAMP,
  },
  table: {
    noun: 'business records',
    list: [
      'id',
      'name',
      'industry',
      'role',
      'registered',
      'registration_number',
      'established_on',
      'average_monthly_income',
      'number_of_employees',
    ],
  },
});

// 2.8 Bank details
export const BANK_DETAILS = describe({
  fields: {
    ...ATTACHED,
    // The sandbox has no separate credit orders: a loan request is its own credit order.
    credit_order_id: { kind: 'id', sandbox: { copy: 'loan_request_id' } },
    code: { kind: 'text', label: 'Code' },
    account_number: { kind: 'text', label: 'Account number' },
    account_name: { kind: 'text', label: 'Account name' },
    bank_name: { kind: 'text', label: 'Bank' },
    is_deleted: { kind: 'bool', sandbox: { always: false } },
    ...WITH_CUSTOM_FIELDS,
    created_at: { kind: 'timestamp', label: 'Added' },
    updated_at: TIMESTAMP,
  },
  // The linker tokenized from the account (4.8), once it is.
  storedOnly: { linker_id: { kind: 'text', nullable: true } },
  table: {
    noun: 'bank details',
    list: ['id', 'bank_name', 'code', 'account_name', 'account_number', 'created_at'],
  },
});

// 2.9 Guarantor: gender is stored but not returned; relationship may be absent.
export const GUARANTOR = describe({
  fields: {
    ...ATTACHED,
    firstname: { kind: 'text', label: 'First name' },
    lastname: { kind: 'text', label: 'Last name' },
    email: { kind: 'text', label: 'Email' },
    phone: { kind: 'text', label: 'Phone' },
    relationship: { kind: 'text', optional: true, label: 'Relationship' },
    created_at: { kind: 'timestamp', label: 'Added' },
    updated_at: TIMESTAMP,
  },
  storedOnly: { gender: { kind: 'text' } },
  table: {
    noun: 'guarantors',
    list: ['id', 'firstname', 'lastname', 'relationship', 'email', 'phone', 'created_at'],
  },
});

// 2.10 Employment information
export const EMPLOYMENT = describe({
  fields: {
    id: ID,
    user_id: OWNER_ID,
    loan_request_id: OWNER_ID,
    status: { kind: 'text', label: 'Status' },
    company_name: { kind: 'text', label: 'Company' },
    company_address: { kind: 'text', label: 'Address' },
    position: { kind: 'text', label: 'Position' },
    salary: { kind: 'whole-money', label: 'Salary' },
    manager: { kind: 'text', label: 'Manager' },
    manager_phone: { kind: 'text', label: 'Manager phone' },
    manager_email: { kind: 'text', label: 'Manager e-mail', header: 'MANAGER EMAIL' },
    ...WITH_CUSTOM_FIELDS,
    created_at: { kind: 'timestamp', label: 'Added' },
    updated_at: TIMESTAMP,
  },
  // Every attached record is kept with its organisation, though this one's reply does not say it.
  storedOnly: { org_id: { kind: 'id' } },
  table: {
    noun: 'employment records',
    list: ['id', 'company_name', 'position', 'status', 'salary', 'manager', 'manager_phone', 'manager_email'],
    detail: [
      'id',
      'company_name',
      'company_address',
      'position',
      'status',
      'salary',
      'manager',
      'manager_phone',
      'manager_email',
      'created_at',
    ],
  },
});

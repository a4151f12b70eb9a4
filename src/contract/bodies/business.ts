/** The body of business information: spec 2.6, 4.11 (the table's conventions: ../fields.ts). */
import type { FieldDef } from '../fields.js';

/** The help's words for a value of kind `whole`. */
export const WHOLE = 'whole number';

export const BUSINESS = [
  { name: 'name', kind: 'text', required: true, help: 'name of the business', question: 'Business name' },
  {
    name: 'org_id',
    kind: 'org-id',
    required: true,
    help: "your organisation's id (default: the profile's, else the org_id of your user list)",
    question: 'Organisation id',
  },
  {
    name: 'role',
    kind: 'text',
    required: true,
    help: "the borrower's role in the business, e.g. owner",
    question: "Borrower's role in the business",
    hint: 'e.g. owner',
  },
  {
    name: 'industry',
    kind: 'text',
    required: true,
    help: 'industry, e.g. retail',
    question: 'Industry',
    hint: 'e.g. retail',
  },
  {
    name: 'description',
    kind: 'text',
    required: true,
    help: 'what the business does',
    question: 'What the business does',
  },
  {
    name: 'registered',
    kind: 'bool',
    required: true,
    help: 'the business is registered',
    noHelp: 'the business is not registered',
    question: 'Is the business registered?',
  },
  {
    name: 'registration_number',
    kind: 'text',
    help: 'registration number (e.g. RC number)',
    question: 'Registration number',
    hint: 'e.g. RC123456',
  },
  {
    name: 'established_on',
    kind: 'date',
    help: 'date the business was established (yyyy-mm-dd)',
    question: 'Established on',
    hint: 'yyyy-mm-dd',
  },
  {
    name: 'physical_location',
    kind: 'text',
    help: 'whether / where the business has a physical location',
    question: 'Physical location',
    hint: 'an address, or "online"',
  },
  { name: 'number_of_locations', kind: 'whole', help: `number of locations (${WHOLE})` },
  { name: 'location_status', kind: 'text', help: 'status of the location, e.g. rented or owned' },
  {
    name: 'average_monthly_income',
    kind: 'whole',
    help: `average monthly income (${WHOLE})`,
    question: 'Average monthly income',
    hint: WHOLE,
  },
  { name: 'last_twelve_months_income', kind: 'whole', help: `income over the last twelve months (${WHOLE})` },
  {
    name: 'primary_payments_collection_method',
    kind: 'text',
    help: 'how the business mostly collects payments, e.g. pos',
  },
  {
    name: 'number_of_employees',
    kind: 'whole-text',
    help: `number of employees (${WHOLE})`,
    question: 'Number of employees',
  },
  { name: 'monthly_salary_cost', kind: 'whole', help: `monthly salary cost (${WHOLE})` },
  { name: 'annual_rent_cost', kind: 'whole', help: `annual rent cost (${WHOLE})` },
  { name: 'monthly_electricity_cost', kind: 'whole', help: `monthly electricity cost (${WHOLE})` },
  { name: 'monthly_ads_cost', kind: 'whole', help: `monthly advertising cost (${WHOLE})` },
  { name: 'monthly_marketing_cost', kind: 'whole', help: `monthly marketing cost (${WHOLE})` },
] as const satisfies readonly FieldDef[];

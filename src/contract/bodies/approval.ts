/** The approval terms of spec 2.4 and 4.19 (the table's conventions: ../fields.ts). */
import type { FieldDef } from '../fields.js';

/** The terms of spec 4.19; `loan schedule` takes the same ones offline (bar the note). */
export const APPROVAL = [
  { name: 'approved_amount', kind: 'money', example: 45000, required: true, help: 'amount approved, more than 0' },
  {
    name: 'rate',
    kind: 'rate',
    required: true,
    help: '% per --tenured-in unit (e.g. 5 or 12.5); for fixed-amount, the interest in currency',
  },
  {
    name: 'tenure',
    kind: 'count',
    example: 6,
    required: true,
    help: 'length of the loan, in --tenured-in units (whole number)',
  },
  {
    name: 'tenured_in',
    kind: 'tenured-in',
    required: true,
    value: 'unit',
    help: 'unit of the tenure and the rate: months, weeks or days',
  },
  {
    name: 'rate_type',
    kind: 'rate-type',
    required: true,
    value: 'type',
    help: 'simple-interest, compound-interest or fixed-amount',
  },
  {
    name: 'frequency',
    kind: 'frequency',
    required: true,
    value: 'f',
    help: 'how often an instalment falls due: daily, weekly, bi-weekly or monthly',
  },
  {
    name: 'grace_period',
    kind: 'whole',
    example: 0,
    value: 'days',
    help: 'days after the start before the schedule begins (default 0)',
  },
  {
    name: 'exclude_weekends',
    kind: 'bool',
    example: false,
    help: 'move a due date on Saturday or Sunday to the next Monday',
  },
  { name: 'note', kind: 'text', help: 'why the loan is approved on these terms' },
] as const satisfies readonly FieldDef[];

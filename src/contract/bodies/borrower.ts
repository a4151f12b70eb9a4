/** The bodies of a borrower and of a loan request: spec 2.2, 4.1, 4.4, 4.6 (the table's conventions: ../fields.ts). */
import type { FieldDef } from '../fields.js';

export const USER = [
  {
    name: 'firstname',
    kind: 'text',
    example: 'Ada',
    required: true,
    value: 'name',
    help: 'first name',
    question: "Borrower's first name",
  },
  {
    name: 'lastname',
    kind: 'text',
    example: 'Obi',
    required: true,
    value: 'name',
    help: 'last name',
    question: "Borrower's last name",
  },
  {
    name: 'email',
    kind: 'email',
    example: 'ada.obi@example.com',
    required: true,
    help: 'e-mail address, unique in your organisation',
    question: "Borrower's e-mail",
  },
  { name: 'password', kind: 'secret', required: true, noFlag: true, help: "the borrower's password" },
  {
    name: 'phone',
    kind: 'phone',
    example: '+2348012345678',
    required: true,
    help: 'phone: +2348012345678, 2348012345678 or 08012345678 (sent as +234…)',
    question: "Borrower's phone",
  },
  {
    name: 'gender',
    kind: 'text',
    example: 'female',
    required: true,
    value: 'gender',
    help: 'gender, e.g. female or male',
    question: "Borrower's gender",
  },
] as const satisfies readonly FieldDef[];

export const LOAN_REQUEST = [
  {
    name: 'amount',
    kind: 'money',
    required: true,
    help: 'amount requested, more than 0 (50000, 50,000 or 1250.50)',
    question: 'Amount requested',
  },
  {
    name: 'purpose',
    kind: 'text',
    example: 'Shop stock',
    required: true,
    help: 'what the loan is for',
    question: 'Purpose of the loan',
  },
] as const satisfies readonly FieldDef[];

export const LOAN_REQUEST_UPDATE = [
  {
    name: 'purpose',
    kind: 'text',
    example: 'Shop stock for the festive season',
    required: true,
    help: 'the new purpose',
  },
] as const satisfies readonly FieldDef[];

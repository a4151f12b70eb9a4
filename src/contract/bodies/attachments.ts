/** The bodies of a loan request's documents, bank details, guarantors and employment: spec 2.5–2.9 (the table's conventions: ../fields.ts). */
import type { FieldDef } from '../fields.js';
import { WHOLE } from './business.js';

export const DOCUMENT = [
  {
    name: 'type',
    kind: 'text',
    required: true,
    value: 'type',
    help: 'kind of document, e.g. passport, drivers-license, national-id',
    question: 'Document type',
    hint: 'e.g. passport, national-id',
  },
  { name: 'title', kind: 'text', required: true, help: 'title of the document', question: 'Document title' },
  {
    name: 'number',
    kind: 'text',
    required: true,
    help: 'number printed on the document',
    question: 'Number on the document',
  },
  {
    name: 'document_url',
    kind: 'url',
    required: true,
    flag: 'url',
    help: 'where the image of the document is (http or https)',
    question: "URL of the document's image",
  },
] as const satisfies readonly FieldDef[];

export const BANK_DETAILS = [
  { name: 'code', kind: 'text', required: true, help: 'bank code, e.g. 058', question: 'Bank code', hint: 'e.g. 058' },
  {
    name: 'account_name',
    kind: 'text',
    required: true,
    value: 'name',
    help: 'name on the account',
    question: 'Account name',
  },
  {
    name: 'account_number',
    kind: 'text',
    value: 'number',
    help: 'account number (optional)',
    question: 'Account number',
  },
  { name: 'bank_name', kind: 'text', value: 'name', help: 'name of the bank (optional)', question: 'Bank name' },
] as const satisfies readonly FieldDef[];

export const GUARANTOR = [
  {
    name: 'firstname',
    kind: 'text',
    required: true,
    value: 'name',
    help: "guarantor's first name",
    question: "Guarantor's first name",
  },
  {
    name: 'lastname',
    kind: 'text',
    required: true,
    value: 'name',
    help: "guarantor's last name",
    question: "Guarantor's last name",
  },
  {
    name: 'gender',
    kind: 'text',
    required: true,
    value: 'gender',
    help: "guarantor's gender",
    question: "Guarantor's gender",
  },
  {
    name: 'relationship',
    kind: 'text',
    required: true,
    help: "the borrower's relationship to the guarantor, e.g. brother",
    question: 'Relationship to the borrower',
    hint: 'e.g. brother',
  },
  { name: 'email', kind: 'email', required: true, help: "guarantor's e-mail", question: "Guarantor's e-mail" },
  {
    name: 'phone',
    kind: 'phone',
    required: true,
    help: "guarantor's phone: +234…, 234… or 0… (sent as +234…)",
    question: "Guarantor's phone",
    hint: 'e.g. 08012345678',
  },
] as const satisfies readonly FieldDef[];

export const EMPLOYMENT = [
  {
    name: 'status',
    kind: 'text',
    required: true,
    help: 'current employment status, e.g. employed',
    question: 'Employment status',
    hint: 'e.g. employed',
  },
  {
    name: 'company_name',
    kind: 'text',
    required: true,
    value: 'name',
    help: "employer's name",
    question: "Employer's name",
  },
  { name: 'company_address', kind: 'text', required: true, help: "employer's address", question: "Employer's address" },
  { name: 'position', kind: 'text', required: true, help: "the borrower's position", question: 'Position' },
  {
    name: 'salary',
    kind: 'whole',
    required: true,
    help: `monthly salary (${WHOLE})`,
    question: 'Monthly salary',
    hint: WHOLE,
  },
  { name: 'manager', kind: 'text', required: true, value: 'name', help: "manager's name", question: "Manager's name" },
  {
    name: 'manager_phone',
    kind: 'contact-phone',
    required: true,
    help: "manager's phone (a Nigerian number is sent as +234…)",
    question: "Manager's phone",
  },
  { name: 'manager_email', kind: 'email', required: true, help: "manager's e-mail", question: "Manager's e-mail" },
] as const satisfies readonly FieldDef[];

/**
 * The borrowers' operations (spec 4.1–4.3), each row with its body fields (spec 2.2). What a row
 * holds: ../operations.ts; a field: ../fields.ts.
 */
import type { OperationDef } from '../operations.js';

export const USER_OPERATIONS = [
  {
    key: 'createUser',
    summary: 'Create a borrower user',
    spec: '4.1',
    method: 'POST',
    path: '/api/v1/user',
    pathParams: [],
    productId: false,
    query: {},
    body: [
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
    ],
    check: 'user exists --email :email',
    reply: { data: 'user' },
  },
  {
    key: 'userExists',
    summary: 'Check whether a user with an e-mail exists',
    spec: '4.2',
    method: 'GET',
    path: '/api/v1/user/actions',
    pathParams: [],
    productId: false,
    query: { email: { type: 'email' }, action: { type: 'literal', value: 'exists' } },
    reply: { data: 'boolean' },
  },
  {
    key: 'listUsers',
    summary: 'List borrower users, a page at a time',
    spec: '4.3',
    method: 'GET',
    path: '/api/v1/user',
    pathParams: [],
    productId: false,
    query: {
      start: { type: 'date', optional: true },
      end: { type: 'date', optional: true },
      pages: { type: 'positive-int', optional: true },
    },
    reply: { data: 'userListItem[]' },
  },
] as const satisfies readonly OperationDef[];

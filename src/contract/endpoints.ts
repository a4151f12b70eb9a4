/**
 * One declarative table of every operation of the API (spec section 4).
 *
 * The CLI's client, the sandbox's routes and the tests all read this table, so they cannot drift
 * apart, and "every operation is covered" is a loop over ENDPOINTS.
 *
 * Conventions of the table:
 * - `path` uses `:name` placeholders (Fastify's syntax); `pathParams` lists them in order.
 * - `productId` says the operation takes `?product-id=`. It is kept apart from `query` because the
 *   API answers a missing product id in its own way (200, status `error`, `Product ID is required`).
 * - `query` validates the other query parameters as they arrive (strings), coercing numbers.
 * - `reply.data` / `reply.data1` validate the envelope's payloads of a successful reply.
 * - The three paths the spec leaves open (4.20) use the ones issue #2 chose: business information
 *   `POST .../business`, get bank details `GET .../bank_details`, get employment `GET .../employment`.
 */
import * as z from 'zod';
import {
  ApprovalTerms,
  BankDetailsRecord,
  BankDetailsRequest,
  BusinessRecord,
  BusinessRequest,
  DateString,
  DocumentRecord,
  DocumentRequest,
  EmploymentRecord,
  EmploymentRequest,
  GuarantorRecord,
  GuarantorRequest,
  LoanRequest,
  LoanRequestCreate,
  LoanRequestPage,
  LoanRequestUpdate,
  UserCreateReply,
  UserCreateRequest,
  UserListItem,
} from './schemas.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface EndpointDef {
  /** verbNoun, e.g. `createUser`. */
  key: string;
  /** One line for help texts and docs. */
  summary: string;
  /** Spec section that describes the operation. */
  spec: string;
  method: HttpMethod;
  path: string;
  pathParams: readonly string[];
  productId: boolean;
  query: z.ZodObject;
  body?: z.ZodType;
  reply: { data: z.ZodType; data1?: z.ZodType };
}

const PositiveIntText = z.coerce.number().int('must be a whole number').positive('must be at least 1');
const NonNegativeIntText = z.coerce.number().int('must be a whole number').nonnegative('must not be negative');
const NoQuery = z.object({});
const LOAN_REQUEST_ID = ['id'] as const;

export const ENDPOINTS = [
  {
    key: 'createUser',
    summary: 'Create a borrower user',
    spec: '4.1',
    method: 'POST',
    path: '/api/v1/user',
    pathParams: [],
    productId: false,
    query: NoQuery,
    body: UserCreateRequest,
    reply: { data: UserCreateReply },
  },
  {
    key: 'userExists',
    summary: 'Check whether a user with an e-mail exists',
    spec: '4.2',
    method: 'GET',
    path: '/api/v1/user/actions',
    pathParams: [],
    productId: false,
    query: z.object({ email: z.email('must be an e-mail address'), action: z.literal('exists') }),
    reply: { data: z.boolean() },
  },
  {
    key: 'listUsers',
    summary: 'List borrower users, a page at a time',
    spec: '4.3',
    method: 'GET',
    path: '/api/v1/user',
    pathParams: [],
    productId: false,
    query: z.object({ start: DateString.optional(), end: DateString.optional(), pages: PositiveIntText.optional() }),
    reply: { data: z.array(UserListItem) },
  },
  {
    key: 'createLoanRequest',
    summary: 'Create a loan request for a user under a product',
    spec: '4.4',
    method: 'POST',
    path: '/api/v1/user/:user_id/loan_request',
    pathParams: ['user_id'],
    productId: true,
    query: NoQuery,
    body: LoanRequestCreate,
    reply: { data: LoanRequest },
  },
  {
    key: 'listLoanRequests',
    summary: 'List loan requests of a product by id, with a cursor',
    spec: '4.5',
    method: 'GET',
    path: '/api/v1/loan_request',
    pathParams: [],
    productId: true,
    query: z.object({
      direction: z.string().optional(),
      cursor: NonNegativeIntText.optional(),
      limit: PositiveIntText.optional(),
    }),
    reply: { data: LoanRequestPage },
  },
  {
    key: 'updateLoanRequest',
    summary: 'Update the purpose of a loan request',
    spec: '4.6',
    method: 'PUT',
    path: '/api/v1/loan_request/:id',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NoQuery,
    body: LoanRequestUpdate,
    reply: { data: LoanRequest },
  },
  {
    key: 'deleteLoanRequest',
    summary: 'Delete a loan request',
    spec: '4.7',
    method: 'DELETE',
    path: '/api/v1/loan_request/:id',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NoQuery,
    reply: { data: z.null() },
  },
  {
    key: 'tokenizeLinker',
    summary: 'Tokenize the linker of a loan request',
    spec: '4.8',
    method: 'POST',
    path: '/api/v1/loan_request/:id/tokenize_linker',
    pathParams: LOAN_REQUEST_ID,
    productId: false,
    query: NoQuery,
    reply: { data: LoanRequest },
  },
  {
    key: 'uploadDocument',
    summary: 'Attach an identity document to a loan request',
    spec: '4.9',
    method: 'POST',
    path: '/api/v1/loan_request/:id/upload',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NoQuery,
    body: DocumentRequest,
    reply: { data: z.array(DocumentRecord), data1: z.null() },
  },
  {
    key: 'getProgress',
    summary: 'Get the progress marker of a loan request',
    spec: '4.10',
    method: 'GET',
    path: '/api/v1/loan_request/:id/progress',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NoQuery,
    reply: { data: z.string() },
  },
  {
    key: 'addBusinessInfo',
    summary: 'Add business information to a loan request',
    spec: '4.11',
    method: 'POST',
    path: '/api/v1/loan_request/:id/business',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NoQuery,
    body: BusinessRequest,
    reply: { data: BusinessRecord },
  },
  {
    key: 'addBankDetails',
    summary: 'Add bank details to a loan request',
    spec: '4.12',
    method: 'POST',
    path: '/api/v1/loan_request/:id/bank_details',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NoQuery,
    body: BankDetailsRequest,
    reply: { data: z.null(), data1: LoanRequest },
  },
  {
    key: 'getBankDetails',
    summary: 'List the bank details of a loan request',
    spec: '4.13',
    method: 'GET',
    path: '/api/v1/loan_request/:id/bank_details',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NoQuery,
    reply: { data: z.array(BankDetailsRecord) },
  },
  {
    key: 'submitLoanRequest',
    summary: 'Submit a loan request for consideration',
    spec: '4.14',
    method: 'PUT',
    path: '/api/v1/loan_request/:id/submit',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NoQuery,
    reply: { data: z.null(), data1: LoanRequest },
  },
  {
    key: 'addGuarantor',
    summary: 'Add a guarantor to a loan request',
    spec: '4.15',
    method: 'POST',
    path: '/api/v1/loan_request/:id/guarantor',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NoQuery,
    body: GuarantorRequest,
    reply: { data: z.array(GuarantorRecord), data1: z.null() },
  },
  {
    key: 'getGuarantors',
    summary: 'List the guarantors of a loan request',
    spec: '4.16',
    method: 'GET',
    path: '/api/v1/loan_request/:id/guarantor',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NoQuery,
    reply: { data: z.array(GuarantorRecord) },
  },
  {
    key: 'addEmployment',
    summary: 'Add employment information to a loan request (once)',
    spec: '4.17',
    method: 'POST',
    path: '/api/v1/loan_request/:id/employment',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NoQuery,
    body: EmploymentRequest,
    reply: { data: EmploymentRecord },
  },
  {
    key: 'getEmployment',
    summary: 'Get the employment information of a loan request',
    spec: '4.18',
    method: 'GET',
    path: '/api/v1/loan_request/:id/employment',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NoQuery,
    reply: { data: EmploymentRecord.nullable() },
  },
  {
    key: 'approveLoanRequest',
    summary: 'Approve a loan request with terms',
    spec: '4.19',
    method: 'POST',
    path: '/api/v1/loan_request/:id/action',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: z.object({ action: z.literal('approve') }),
    body: ApprovalTerms,
    reply: { data: LoanRequest },
  },
] as const satisfies readonly EndpointDef[];

export type EndpointKey = (typeof ENDPOINTS)[number]['key'];
export type Endpoint<K extends EndpointKey = EndpointKey> = Extract<(typeof ENDPOINTS)[number], { key: K }>;

const BY_KEY = new Map<string, EndpointDef>(ENDPOINTS.map((endpoint) => [endpoint.key, endpoint]));

export function endpoint<K extends EndpointKey>(key: K): Endpoint<K> {
  const found = BY_KEY.get(key);
  if (!found) throw new Error(`unknown endpoint ${key}`);
  return found as Endpoint<K>;
}

/** Fills a path's `:name` placeholders, URL-encoding each value. */
export function fillPath(path: string, params: Record<string, string | number>): string {
  return path.replace(/:([a-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** The payload type of a successful reply of an endpoint. */
export type ReplyData<K extends EndpointKey> = z.infer<Endpoint<K>['reply']['data']>;

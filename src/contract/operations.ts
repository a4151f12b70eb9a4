/**
 * Every operation of the API (spec section 4), described once: its method and path, path
 * parameters, query, and (in ./fields.ts, by the same key) the fields of its body. ./endpoints.ts
 * builds the zod schemas of query and body from these descriptions on first use, and adds each
 * operation's reply schema (./replies.ts); the client sends from this table and the sandbox's routes
 * are generated from it. Plain data: `--help`, completion and the README generator read it
 * without loading zod.
 *
 * Conventions of the table:
 * - `path` uses `:name` placeholders (Fastify's syntax); `pathParams` lists them in order.
 * - `productId` says the operation takes `?product-id=`. It is kept apart from `query` because the
 *   API answers a missing product id in its own way (200, status `error`, `Product ID is required`).
 * - `query` describes the other query parameters as they arrive (text).
 * - An operation carries a JSON body when ./fields.ts lists its fields (`carriesBody`).
 * - The three paths the spec leaves open (4.20) use the ones issue #2 chose: business information
 *   `POST .../business`, get bank details `GET .../bank_details`, get employment `GET .../employment`.
 */
import { BODY_FIELDS, type BodyKey } from './fields.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One query parameter: what its text must be. */
export type QueryParam =
  | { type: 'email' | 'date' | 'text' | 'positive-int' | 'non-negative-int'; optional?: true }
  | { type: 'literal'; value: string; optional?: true };

export type QuerySpec = Readonly<Record<string, QueryParam>>;

/** A record the API returns (spec section 2); its schema is in ./schemas.ts, its columns in src/output/columns.ts. */
export type RecordName =
  | 'user'
  | 'userListItem'
  | 'loanRequest'
  | 'loanRequestPage'
  | 'bankDetails'
  | 'guarantor'
  | 'employment'
  | 'document'
  | 'business';

/**
 * What a successful reply carries in `data` or `data1`: a record, a list of them (`[]`), a record
 * or null (`?`), a plain value, or `none` (null or absent).
 */
export type ReplyShape = RecordName | `${RecordName}[]` | `${RecordName}?` | 'boolean' | 'string' | 'none';

export interface OperationDef {
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
  query: QuerySpec;
  /** The payloads of a successful reply. */
  reply: { data: ReplyShape; data1?: ReplyShape };
  /**
   * Other paths the real service's documentation gives the same operation. The sandbox serves
   * them with the same behaviour and `loanctl api` knows them; the CLI sends `path`.
   */
  otherPaths?: readonly string[];
}

const NO_QUERY = {} as const;
const LOAN_REQUEST_ID = ['id'] as const;

export const OPERATIONS = [
  {
    key: 'createUser',
    summary: 'Create a borrower user',
    spec: '4.1',
    method: 'POST',
    path: '/api/v1/user',
    pathParams: [],
    productId: false,
    query: NO_QUERY,
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
  {
    key: 'createLoanRequest',
    summary: 'Create a loan request for a user under a product',
    spec: '4.4',
    method: 'POST',
    path: '/api/v1/user/:user_id/loan_request',
    pathParams: ['user_id'],
    productId: true,
    query: NO_QUERY,
    reply: { data: 'loanRequest' },
  },
  {
    key: 'listLoanRequests',
    summary: 'List loan requests of a product by id, with a cursor',
    spec: '4.5',
    method: 'GET',
    path: '/api/v1/loan_request',
    pathParams: [],
    productId: true,
    query: {
      direction: { type: 'text', optional: true },
      cursor: { type: 'non-negative-int', optional: true },
      limit: { type: 'positive-int', optional: true },
    },
    reply: { data: 'loanRequestPage' },
  },
  {
    key: 'updateLoanRequest',
    summary: 'Update the purpose of a loan request',
    spec: '4.6',
    method: 'PUT',
    path: '/api/v1/loan_request/:id',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NO_QUERY,
    reply: { data: 'loanRequest' },
  },
  {
    key: 'deleteLoanRequest',
    summary: 'Delete a loan request',
    spec: '4.7',
    method: 'DELETE',
    path: '/api/v1/loan_request/:id',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NO_QUERY,
    reply: { data: 'none' },
  },
  {
    key: 'tokenizeLinker',
    summary: 'Tokenize the linker of a loan request',
    spec: '4.8',
    method: 'POST',
    path: '/api/v1/loan_request/:id/tokenize_linker',
    // The real documentation calls it "Tokenize Mono" at this path; the spec's name is kept for sending.
    otherPaths: ['/api/v1/loan_request/:id/tokenize_mono'],
    pathParams: LOAN_REQUEST_ID,
    productId: false,
    query: NO_QUERY,
    reply: { data: 'loanRequest' },
  },
  {
    key: 'uploadDocument',
    summary: 'Attach an identity document to a loan request',
    spec: '4.9',
    method: 'POST',
    path: '/api/v1/loan_request/:id/upload',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NO_QUERY,
    reply: { data: 'document[]', data1: 'none' },
  },
  {
    key: 'getProgress',
    summary: 'Get the progress marker of a loan request',
    spec: '4.10',
    method: 'GET',
    path: '/api/v1/loan_request/:id/progress',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NO_QUERY,
    reply: { data: 'string' },
  },
  {
    key: 'addBusinessInfo',
    summary: 'Add business information to a loan request',
    spec: '4.11',
    method: 'POST',
    path: '/api/v1/loan_request/:id/business',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NO_QUERY,
    reply: { data: 'business' },
  },
  {
    key: 'addBankDetails',
    summary: 'Add bank details to a loan request',
    spec: '4.12',
    method: 'POST',
    path: '/api/v1/loan_request/:id/bank_details',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NO_QUERY,
    reply: { data: 'none', data1: 'loanRequest' },
  },
  {
    key: 'getBankDetails',
    summary: 'List the bank details of a loan request',
    spec: '4.13',
    method: 'GET',
    path: '/api/v1/loan_request/:id/bank_details',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NO_QUERY,
    reply: { data: 'bankDetails[]' },
  },
  {
    key: 'submitLoanRequest',
    summary: 'Submit a loan request for consideration',
    spec: '4.14',
    method: 'PUT',
    path: '/api/v1/loan_request/:id/submit',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NO_QUERY,
    reply: { data: 'none', data1: 'loanRequest' },
  },
  {
    key: 'addGuarantor',
    summary: 'Add a guarantor to a loan request',
    spec: '4.15',
    method: 'POST',
    path: '/api/v1/loan_request/:id/guarantor',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NO_QUERY,
    reply: { data: 'guarantor[]', data1: 'none' },
  },
  {
    key: 'getGuarantors',
    summary: 'List the guarantors of a loan request',
    spec: '4.16',
    method: 'GET',
    path: '/api/v1/loan_request/:id/guarantor',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NO_QUERY,
    reply: { data: 'guarantor[]' },
  },
  {
    key: 'addEmployment',
    summary: 'Add employment information to a loan request (once)',
    spec: '4.17',
    method: 'POST',
    path: '/api/v1/loan_request/:id/employment',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NO_QUERY,
    reply: { data: 'employment' },
  },
  {
    key: 'getEmployment',
    summary: 'Get the employment information of a loan request',
    spec: '4.18',
    method: 'GET',
    path: '/api/v1/loan_request/:id/employment',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: NO_QUERY,
    reply: { data: 'employment?' },
  },
  {
    key: 'approveLoanRequest',
    summary: 'Approve a loan request with terms',
    spec: '4.19',
    method: 'POST',
    path: '/api/v1/loan_request/:id/action',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    query: { action: { type: 'literal', value: 'approve' } },
    reply: { data: 'loanRequest' },
  },
] as const satisfies readonly OperationDef[];

export type OperationKey = (typeof OPERATIONS)[number]['key'];
export type Operation<K extends OperationKey = OperationKey> = Extract<(typeof OPERATIONS)[number], { key: K }>;

const BY_KEY = new Map<string, OperationDef>(OPERATIONS.map((operation) => [operation.key, operation]));

export function operation<K extends OperationKey>(key: K): Operation<K> {
  const found = BY_KEY.get(key);
  if (!found) throw new Error(`unknown operation ${key}`);
  return found as Operation<K>;
}

/** Fills a path's `:name` placeholders, URL-encoding each value. */
export function fillPath(path: string, params: Record<string, string | number>): string {
  return path.replace(/:([a-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** True for an operation whose request carries a JSON body (its fields are in ./fields.ts). */
export function carriesBody(key: string): key is BodyKey {
  return Object.hasOwn(BODY_FIELDS, key);
}

/** The value a query parameter has once parsed. */
type ParamValue<P> = P extends { type: 'literal'; value: infer V }
  ? V
  : P extends { type: 'positive-int' | 'non-negative-int' }
    ? number
    : string;

type QueryDescription<K extends OperationKey> = Operation<K>['query'];

/** The query of an operation once parsed, as its description says (`{ email: string; action: 'exists' }`). */
export type QueryOf<K extends OperationKey> = {
  [N in keyof QueryDescription<K> as QueryDescription<K>[N] extends { optional: true } ? never : N]: ParamValue<
    QueryDescription<K>[N]
  >;
} & {
  [N in keyof QueryDescription<K> as QueryDescription<K>[N] extends { optional: true } ? N : never]?: ParamValue<
    QueryDescription<K>[N]
  >;
};

/** The path parameters of an operation, by name: `{ id: 42 }`, `{ user_id: 7 }`, or none. */
export type PathParamsOf<K extends OperationKey> = Record<PathParamNames[K], string | number>;
type PathParamNames = { [O in (typeof OPERATIONS)[number] as O['key']]: O['pathParams'][number] };

/** The record a reply shape names (`guarantor[]` → `guarantor`), or undefined for a plain value. */
export function replyRecord(shape: ReplyShape): RecordName | undefined {
  const name = shape.replace(/\[\]$|\?$/, '');
  return name === 'boolean' || name === 'string' || name === 'none' ? undefined : (name as RecordName);
}

/** The payload an operation's successful reply is printed from: `data1` where `data` carries none. */
export function replyPayloadShape(key: OperationKey): ReplyShape {
  const { reply } = operation(key) as OperationDef;
  return reply.data === 'none' && reply.data1 !== undefined ? reply.data1 : reply.data;
}

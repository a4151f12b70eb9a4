/**
 * Every operation of the API (spec section 4) as plain data: its method and path, the parameters it
 * takes, and whether it carries a JSON body. No schema library: this is what the CLI needs to send
 * a request, so a command that sends no body (`loanctl user exists`) never loads zod
 * (bench/README.md). ./endpoints.ts adds the zod schemas of bodies and replies, and builds the
 * query schemas from the same `query` descriptions; the sandbox's routes are generated from it.
 *
 * Conventions of the table:
 * - `path` uses `:name` placeholders (Fastify's syntax); `pathParams` lists them in order.
 * - `productId` says the operation takes `?product-id=`. It is kept apart from `query` because the
 *   API answers a missing product id in its own way (200, status `error`, `Product ID is required`).
 * - `query` describes the other query parameters as they arrive (text); `checkQuery` checks them
 *   exactly as the zod schemas built from them do (test/unit/operations.test.ts compares the two).
 * - The three paths the spec leaves open (4.20) use the ones issue #2 chose: business information
 *   `POST .../business`, get bank details `GET .../bank_details`, get employment `GET .../employment`.
 */
import { queryWholeProblem } from './ranges.js';
import { DATE_PATTERN, EMAIL_PATTERN, isCalendarDay } from './vocabulary.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One query parameter: what its text must be. */
export type QueryParam =
  | { type: 'email' | 'date' | 'text' | 'positive-int' | 'non-negative-int'; optional?: true }
  | { type: 'literal'; value: string; optional?: true };

export type QuerySpec = Readonly<Record<string, QueryParam>>;

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
  /** It carries a JSON body (validated with ./endpoints.ts before sending). */
  body: boolean;
  query: QuerySpec;
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
    body: true,
    query: NO_QUERY,
  },
  {
    key: 'userExists',
    summary: 'Check whether a user with an e-mail exists',
    spec: '4.2',
    method: 'GET',
    path: '/api/v1/user/actions',
    pathParams: [],
    productId: false,
    body: false,
    query: { email: { type: 'email' }, action: { type: 'literal', value: 'exists' } },
  },
  {
    key: 'listUsers',
    summary: 'List borrower users, a page at a time',
    spec: '4.3',
    method: 'GET',
    path: '/api/v1/user',
    pathParams: [],
    productId: false,
    body: false,
    query: {
      start: { type: 'date', optional: true },
      end: { type: 'date', optional: true },
      pages: { type: 'positive-int', optional: true },
    },
  },
  {
    key: 'createLoanRequest',
    summary: 'Create a loan request for a user under a product',
    spec: '4.4',
    method: 'POST',
    path: '/api/v1/user/:user_id/loan_request',
    pathParams: ['user_id'],
    productId: true,
    body: true,
    query: NO_QUERY,
  },
  {
    key: 'listLoanRequests',
    summary: 'List loan requests of a product by id, with a cursor',
    spec: '4.5',
    method: 'GET',
    path: '/api/v1/loan_request',
    pathParams: [],
    productId: true,
    body: false,
    query: {
      direction: { type: 'text', optional: true },
      cursor: { type: 'non-negative-int', optional: true },
      limit: { type: 'positive-int', optional: true },
    },
  },
  {
    key: 'updateLoanRequest',
    summary: 'Update the purpose of a loan request',
    spec: '4.6',
    method: 'PUT',
    path: '/api/v1/loan_request/:id',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    body: true,
    query: NO_QUERY,
  },
  {
    key: 'deleteLoanRequest',
    summary: 'Delete a loan request',
    spec: '4.7',
    method: 'DELETE',
    path: '/api/v1/loan_request/:id',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    body: false,
    query: NO_QUERY,
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
    body: false,
    query: NO_QUERY,
  },
  {
    key: 'uploadDocument',
    summary: 'Attach an identity document to a loan request',
    spec: '4.9',
    method: 'POST',
    path: '/api/v1/loan_request/:id/upload',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    body: true,
    query: NO_QUERY,
  },
  {
    key: 'getProgress',
    summary: 'Get the progress marker of a loan request',
    spec: '4.10',
    method: 'GET',
    path: '/api/v1/loan_request/:id/progress',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    body: false,
    query: NO_QUERY,
  },
  {
    key: 'addBusinessInfo',
    summary: 'Add business information to a loan request',
    spec: '4.11',
    method: 'POST',
    path: '/api/v1/loan_request/:id/business',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    body: true,
    query: NO_QUERY,
  },
  {
    key: 'addBankDetails',
    summary: 'Add bank details to a loan request',
    spec: '4.12',
    method: 'POST',
    path: '/api/v1/loan_request/:id/bank_details',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    body: true,
    query: NO_QUERY,
  },
  {
    key: 'getBankDetails',
    summary: 'List the bank details of a loan request',
    spec: '4.13',
    method: 'GET',
    path: '/api/v1/loan_request/:id/bank_details',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    body: false,
    query: NO_QUERY,
  },
  {
    key: 'submitLoanRequest',
    summary: 'Submit a loan request for consideration',
    spec: '4.14',
    method: 'PUT',
    path: '/api/v1/loan_request/:id/submit',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    body: false,
    query: NO_QUERY,
  },
  {
    key: 'addGuarantor',
    summary: 'Add a guarantor to a loan request',
    spec: '4.15',
    method: 'POST',
    path: '/api/v1/loan_request/:id/guarantor',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    body: true,
    query: NO_QUERY,
  },
  {
    key: 'getGuarantors',
    summary: 'List the guarantors of a loan request',
    spec: '4.16',
    method: 'GET',
    path: '/api/v1/loan_request/:id/guarantor',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    body: false,
    query: NO_QUERY,
  },
  {
    key: 'addEmployment',
    summary: 'Add employment information to a loan request (once)',
    spec: '4.17',
    method: 'POST',
    path: '/api/v1/loan_request/:id/employment',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    body: true,
    query: NO_QUERY,
  },
  {
    key: 'getEmployment',
    summary: 'Get the employment information of a loan request',
    spec: '4.18',
    method: 'GET',
    path: '/api/v1/loan_request/:id/employment',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    body: false,
    query: NO_QUERY,
  },
  {
    key: 'approveLoanRequest',
    summary: 'Approve a loan request with terms',
    spec: '4.19',
    method: 'POST',
    path: '/api/v1/loan_request/:id/action',
    pathParams: LOAN_REQUEST_ID,
    productId: true,
    body: true,
    query: { action: { type: 'literal', value: 'approve' } },
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

/** A failed check: the parameter and what is wrong, as zod words it. */
export interface QueryIssue {
  path: [string];
  message: string;
}

/**
 * Checks query text against its description, with the results and messages of the zod schema
 * `querySchema` (./endpoints.ts) builds from the same description; parameters it does not
 * describe are let through, as zod's objects do.
 */
export function checkQuery(spec: QuerySpec, query: Readonly<Record<string, string | undefined>>): QueryIssue[] {
  const issues: QueryIssue[] = [];
  for (const [name, param] of Object.entries(spec)) {
    const value = query[name];
    if (value === undefined && param.optional) continue;
    for (const message of paramProblems(param, value)) issues.push({ path: [name], message });
  }
  return issues;
}

function paramProblems(param: QueryParam, value: string | undefined): string[] {
  switch (param.type) {
    case 'email':
      return value !== undefined && EMAIL_PATTERN.test(value) ? [] : ['must be an e-mail address'];
    case 'literal':
      return value === param.value ? [] : [`Invalid input: expected "${param.value}"`];
    case 'text':
      return value === undefined ? ['Invalid input: expected string, received undefined'] : [];
    case 'date':
      if (value === undefined) return ['Invalid input: expected string, received undefined'];
      return [
        ...(DATE_PATTERN.test(value) ? [] : ['must be a date as yyyy-mm-dd']),
        ...(isCalendarDay(value) ? [] : ['must be a real calendar date']),
      ];
    case 'positive-int':
    case 'non-negative-int': {
      if (value === undefined) return ['Invalid input: expected string, received undefined'];
      const problem = queryWholeProblem(value, param.type === 'positive-int' ? 1 : 0);
      return problem === undefined ? [] : [problem];
    }
  }
}

/**
 * The contract table with its schemas: every operation of ./operations.ts, plus the zod schemas of
 * its query (built from the operation's description), its body and its reply.
 *
 * The sandbox's routes, the tests, and the CLI when it sends a body (or checks a reply with
 * `--debug`) read this table; the CLI's plain reads need only ./operations.ts, which loads no zod.
 * So they cannot drift apart, and "every operation is covered" is a loop over ENDPOINTS.
 *
 * - `reply.data` / `reply.data1` validate the envelope's payloads of a successful reply.
 */
import * as z from 'zod';
import {
  fillPath,
  type HttpMethod,
  OPERATIONS,
  type Operation,
  type OperationDef,
  type OperationKey,
  type QueryParam,
} from './operations.js';
import { queryWholeProblem } from './ranges.js';
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

export { fillPath, type HttpMethod };

/** An operation of ./operations.ts with its schemas in place of its descriptions. */
export interface EndpointDef extends Omit<OperationDef, 'query' | 'body'> {
  query: z.ZodObject;
  body?: z.ZodType;
  reply: { data: z.ZodType; data1?: z.ZodType };
}

/**
 * Digits in a query, as their number (../contract/ranges.ts says which). The `meta` is what the
 * OpenAPI document says of it (src/sandbox/openapi.ts); z.toJSONSchema alone would say "a string".
 */
function wholeText(min: 0 | 1) {
  return z
    .string()
    .superRefine((text, ctx) => {
      const problem = queryWholeProblem(text, min);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform(Number)
    .meta({ type: 'integer', minimum: min, maximum: Number.MAX_SAFE_INTEGER });
}
const PositiveIntText = wholeText(1);
const NonNegativeIntText = wholeText(0);

/** The value a query parameter has once parsed. */
type ParamValue<P> = P extends { type: 'literal'; value: infer V }
  ? V
  : P extends { type: 'positive-int' | 'non-negative-int' }
    ? number
    : string;
type QueryShape<S> = {
  -readonly [K in keyof S]: S[K] extends { optional: true }
    ? z.ZodOptional<z.ZodType<ParamValue<S[K]>>>
    : z.ZodType<ParamValue<S[K]>>;
};

function paramSchema(param: QueryParam): z.ZodType {
  const schema: z.ZodType = (() => {
    switch (param.type) {
      case 'email':
        return z.email('must be an e-mail address');
      case 'literal':
        return z.literal(param.value);
      case 'text':
        return z.string();
      case 'date':
        return DateString;
      case 'positive-int':
        return PositiveIntText;
      case 'non-negative-int':
        return NonNegativeIntText;
    }
  })();
  return param.optional ? schema.optional() : schema;
}

/** The zod schema of a query description: coerces numbers, strips parameters it does not name. */
export function querySchema<S extends Readonly<Record<string, QueryParam>>>(spec: S): z.ZodObject<QueryShape<S>> {
  const shape = Object.fromEntries(Object.entries(spec).map(([name, param]) => [name, paramSchema(param)]));
  return z.object(shape) as unknown as z.ZodObject<QueryShape<S>>;
}

/** Body and reply schemas of each operation. */
const SCHEMAS = {
  createUser: {
    body: UserCreateRequest,
    reply: { data: UserCreateReply },
  },
  userExists: {
    reply: { data: z.boolean() },
  },
  listUsers: {
    reply: { data: z.array(UserListItem) },
  },
  createLoanRequest: {
    body: LoanRequestCreate,
    reply: { data: LoanRequest },
  },
  listLoanRequests: {
    reply: { data: LoanRequestPage },
  },
  updateLoanRequest: {
    body: LoanRequestUpdate,
    reply: { data: LoanRequest },
  },
  deleteLoanRequest: {
    reply: { data: z.null() },
  },
  tokenizeLinker: {
    reply: { data: LoanRequest },
  },
  uploadDocument: {
    body: DocumentRequest,
    reply: { data: z.array(DocumentRecord), data1: z.null() },
  },
  getProgress: {
    reply: { data: z.string() },
  },
  addBusinessInfo: {
    body: BusinessRequest,
    reply: { data: BusinessRecord },
  },
  addBankDetails: {
    body: BankDetailsRequest,
    reply: { data: z.null(), data1: LoanRequest },
  },
  getBankDetails: {
    reply: { data: z.array(BankDetailsRecord) },
  },
  submitLoanRequest: {
    reply: { data: z.null(), data1: LoanRequest },
  },
  addGuarantor: {
    body: GuarantorRequest,
    reply: { data: z.array(GuarantorRecord), data1: z.null() },
  },
  getGuarantors: {
    reply: { data: z.array(GuarantorRecord) },
  },
  addEmployment: {
    body: EmploymentRequest,
    reply: { data: EmploymentRecord },
  },
  getEmployment: {
    reply: { data: EmploymentRecord.nullable() },
  },
  approveLoanRequest: {
    body: ApprovalTerms,
    reply: { data: LoanRequest },
  },
} as const satisfies Record<OperationKey, { body?: z.ZodType; reply: EndpointDef['reply'] }>;

type Schemas = typeof SCHEMAS;

export type EndpointKey = OperationKey;
/** Each operation with its schemas, one member per key (so `Endpoint<K>['pathParams']` resolves). */
type EndpointOf = {
  [K in OperationKey]: Omit<Operation<K>, 'query' | 'body'> & {
    query: z.ZodObject<QueryShape<Operation<K>['query']>>;
  } & Schemas[K];
}[OperationKey];
export type Endpoint<K extends EndpointKey = EndpointKey> = Extract<EndpointOf, { key: K }>;

export const ENDPOINTS: readonly EndpointDef[] = OPERATIONS.map((operation) => {
  const schemas: { body?: z.ZodType; reply: EndpointDef['reply'] } = SCHEMAS[operation.key];
  const { body: _carriesBody, query, ...route } = operation;
  return { ...route, query: querySchema(query), ...schemas };
});

const BY_KEY = new Map<string, EndpointDef>(ENDPOINTS.map((endpoint) => [endpoint.key, endpoint]));

export function endpoint<K extends EndpointKey>(key: K): Endpoint<K> {
  const found = BY_KEY.get(key);
  if (!found) throw new Error(`unknown endpoint ${key}`);
  return found as unknown as Endpoint<K>;
}

/** The payload type of a successful reply of an endpoint. */
export type ReplyData<K extends EndpointKey> = z.infer<Schemas[K]['reply']['data']>;

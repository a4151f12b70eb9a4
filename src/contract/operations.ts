/**
 * Every operation of the API (spec section 4), described once, as one row of the table
 * (`OPERATIONS`, its rows in ./table/, one file per resource, each row with its body fields in
 * it): its method and path, path parameters, query, body fields, reply, check command, own error
 * replies and (when nothing more is needed) its loanctl verb. This module says what a row holds
 * and derives the rest from the rows; ./fields.ts says what a body field holds. ./field-schemas.ts
 * builds the zod schemas of query and body from these descriptions on first use, ./endpoints.ts
 * adds each operation's reply schema; the client sends from this table, the sandbox's routes and
 * the OpenAPI document are generated from it, and so are the verbs that only wrap one operation
 * (src/commands/common/operation-verb.ts). Plain data: `--help`, completion and the command reference
 * generator read it without loading zod.
 *
 * Conventions of the table:
 * - `path` uses `:name` placeholders (Fastify's syntax); `pathParams` lists them in order.
 * - `productId` says the operation takes `?product-id=`. It is kept apart from `query` because the
 *   API answers a missing product id in its own way (200, status `error`, `Product ID is required`).
 * - `query` describes the other query parameters as they arrive (text).
 * - An operation carries a JSON body when its row lists `body` fields (`carriesBody`).
 * - The three paths the spec leaves open (4.20) are these: business information
 *   `POST .../business`, get bank details `GET .../bank_details`, get employment `GET .../employment`.
 */
import type { BodyKey, FieldDef } from './fields.js';
import type { RecordName } from './records.js';
import { ATTACHMENT_OPERATIONS } from './table/attachments.js';
import { LOAN_REQUEST_OPERATIONS } from './table/loan-requests.js';
import { USER_OPERATIONS } from './table/users.js';
import { WORK_OPERATIONS } from './table/work.js';

/**
 * The table, in the order a lender takes the operations: the OpenAPI examples' journey runs them in
 * this order (src/sandbox/openapi-example-flow.ts), so a row that needs another's effect comes
 * after it (tokenize after the bank details).
 */
export const OPERATIONS = [
  ...USER_OPERATIONS,
  ...LOAN_REQUEST_OPERATIONS,
  ...ATTACHMENT_OPERATIONS,
  ...WORK_OPERATIONS,
] as const;

/** A record the API returns (spec section 2), described in ./records.ts. */
export type { RecordName };

/** The methods a row may use. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const METHOD_ORDER: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * The methods the API's operations use, in the usual order: what `loanctl api` accepts, its help
 * and completion offer. A row with a new method adds it everywhere.
 */
export const API_METHODS: readonly HttpMethod[] = METHOD_ORDER.filter((method) =>
  OPERATIONS.some((row) => row.method === method),
);

/**
 * One query parameter: what its text must be. `example` is a realistic value, sent by the OpenAPI
 * examples' journey and the tests even when the parameter is optional (as fields' `example`, ./fields.ts).
 */
export type QueryParam =
  | { type: 'email' | 'date' | 'text' | 'positive-int' | 'non-negative-int'; optional?: true; example?: string }
  | { type: 'literal'; value: string; optional?: true };

export type QuerySpec = Readonly<Record<string, QueryParam>>;

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
  /**
   * The loanctl verb made from this row alone, as `noun verb` (`loan banks`): its arguments, flags,
   * help and run come from the row (src/commands/common/operation-verb.ts). Absent when a verb of
   * its own wraps the operation, or none does.
   */
  verb?: `${'loan' | 'user'} ${string}`;
  /** The fields of its JSON body (./fields.ts says what a field holds); none: it carries no body. */
  body?: readonly FieldDef[];
  /** The payloads of a successful reply. */
  reply: { data: ReplyShape; data1?: ReplyShape };
  /**
   * A write's: the loanctl command that shows whether it was applied (./checks.ts). Placeholders:
   * `:id`, `:user_id` (the path's), `:email` (the body's). Every write must have one.
   */
  check?: string;
  /**
   * The failures particular to this operation, by name: the sandbox answers them (`refuse` in
   * src/sandbox/envelope.ts), the OpenAPI document lists them. The failures every operation may
   * get (key, product id, validation, no-access, limits) are src/sandbox/openapi-replies.ts's.
   */
  errors?: Readonly<Record<string, OperationError>>;
  /**
   * Other paths the real service's documentation gives the same operation. The sandbox serves
   * them with the same behaviour and `loanctl api` knows them; the CLI sends `path`.
   */
  otherPaths?: readonly string[];
}

/** A failure an operation answers in its own words. */
export interface OperationError {
  /** The HTTP status code it comes with (the API answers some failures with 200). */
  http: number;
  status: 'error' | 'no-access';
  message: string;
  /** When it is answered, for the OpenAPI document and README. */
  when: string;
}

export type OperationKey = (typeof OPERATIONS)[number]['key'];
export type Operation<K extends OperationKey = OperationKey> = Extract<(typeof OPERATIONS)[number], { key: K }>;

/** The names of the failures an operation's row lists (`errors`). */
export type ErrorName<K extends OperationKey> = Operation<K> extends { errors: infer E } ? keyof E & string : never;

const BY_KEY = new Map<string, OperationDef>(OPERATIONS.map((operation) => [operation.key, operation]));

export function operation<K extends OperationKey>(key: K): Operation<K> {
  const found = BY_KEY.get(key);
  if (!found) throw new Error(`unknown operation ${key}`);
  return found as Operation<K>;
}

/** Fills a path's `:name` placeholders, URL-encoding each value. */
export function fillPath(path: string, params: Record<string, string | number>): string {
  // Most of a bulk run's paths have none (POST /user): no pattern run for them.
  if (!path.includes(':')) return path;
  return path.replace(/:([a-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** True for an operation whose request carries a JSON body (its fields are in ./fields.ts). */
export function carriesBody(key: string): key is BodyKey {
  return BY_KEY.get(key)?.body !== undefined;
}

/** Every write has a check command: a row without one does not compile. */
type UncheckedWrite = Exclude<
  Extract<(typeof OPERATIONS)[number], { method: Exclude<HttpMethod, 'GET'> }>,
  { check: string }
>;
const everyWriteIsChecked: [UncheckedWrite] extends [never] ? true : UncheckedWrite = true;
void everyWriteIsChecked;

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

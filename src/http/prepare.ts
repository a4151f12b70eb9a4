/**
 * Turning a call into the request to send: the contract's path with its parameters, the query
 * (product-id added where the operation takes one, the rest checked against the contract), the
 * body validated by the operation's zod schema, and the headers. Nothing here touches the network.
 */

import type { Settings } from '../config/settings.js';
import {
  carriesBody,
  fillPath,
  type HttpMethod,
  type OperationDef,
  type OperationKey,
  operation,
} from '../contract/operations.js';
import { queryIssues } from '../contract/query-check.js';
import { inputError, UsageError } from '../errors.js';
import { VERSION } from '../version.js';
import type { CallOptions, Query } from './api-client.js';

export const USER_AGENT = `loanctl/${VERSION} node/${process.versions.node}`;

export interface Prepared {
  method: HttpMethod;
  url: URL;
  body: string | undefined;
}

/** A call of the contract, prepared, with the facts its "was it applied?" command needs. */
export interface PreparedCall {
  prepared: Prepared;
  params: Record<string, string | number>;
  query: Query;
  /** The body as validated (and sent). */
  body: unknown;
}

export function prepareRequest(
  settings: Settings,
  method: HttpMethod,
  path: string,
  query: Query | undefined,
  body: unknown,
): Prepared {
  if (!settings.baseUrl) {
    throw new UsageError(
      'No API base URL is configured.',
      'Pass --base-url URL, set LOANCTL_BASE_URL, or add a profile: loanctl profile add NAME --base-url URL',
    );
  }
  const url = new URL(settings.baseUrl + (path.startsWith('/') ? path : `/${path}`));
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) url.searchParams.append(name, String(item));
    }
  }
  return { method, url, body: body === undefined ? undefined : JSON.stringify(body) };
}

export function requestHeaders(prepared: Pick<Prepared, 'body'>, key: string): Record<string, string> {
  const result: Record<string, string> = {
    accept: 'application/json',
    'user-agent': USER_AGENT,
    authorization: `Bearer ${key}`,
  };
  if (prepared.body !== undefined) result['content-type'] = 'application/json';
  return result;
}

export async function prepareCall<K extends OperationKey>(
  settings: Settings,
  key: K,
  callOptions: CallOptions<K>,
): Promise<PreparedCall> {
  const def: OperationDef = operation(key);
  const params = pathParams(def, callOptions);
  const query: Query = {};
  if (def.productId) query['product-id'] = productIdOf(settings, callOptions);
  const given: Query = callOptions.query ?? {};
  const extra: Query = Object.fromEntries(
    Object.entries(given).filter(([, value]) => value !== undefined && value !== null),
  );
  const issues = queryIssues(def.query, stringify(extra));
  if (issues.length > 0) throw inputError(issues, { what: 'Invalid query', fromData: false });
  Object.assign(query, extra);
  let body: unknown;
  if (carriesBody(key)) {
    // zod loads here, for the operations that send a body, with that body's schema only (bench/README.md).
    const schemas = await bodySchemasModule();
    const given = callOptions.body ?? {};
    if (schemas.checkedFor(given) === key) {
      // Built by buildOperationBody with this schema, and frozen since: checking it again changes nothing.
      body = given;
    } else {
      const parsed = schemas.bodySchema(key).safeParse(given);
      if (!parsed.success) throw inputError(parsed.error.issues);
      // Send what was validated: zod strips unknown keys and trims where the schema says so.
      body = parsed.data;
    }
  }
  const prepared = prepareRequest(settings, def.method, fillPath(def.path, params), query, body);
  return { prepared, params, query, body };
}

function pathParams(def: OperationDef, callOptions: { params?: object | undefined }): Record<string, string | number> {
  const named: Partial<Record<string, string | number>> = callOptions.params ?? {};
  const params: Record<string, string | number> = {};
  for (const name of def.pathParams) {
    const value = named[name];
    if (value === undefined || String(value).trim() === '') {
      throw new UsageError(`Missing ${name === 'id' ? 'the loan request id' : name} for ${def.summary.toLowerCase()}.`);
    }
    params[name] = value;
  }
  return params;
}

function productIdOf(settings: Settings, callOptions: Pick<CallOptions, 'productId'>): number | string {
  const productId = callOptions.productId ?? settings.productId;
  if (productId === undefined || String(productId).trim() === '') {
    throw new UsageError(
      'No product id: this operation needs one.',
      'Pass --product N, set LOANCTL_PRODUCT_ID, or give the profile one (loanctl profile add NAME --base-url URL --product-id N).',
    );
  }
  return productId;
}

let bodiesLoaded: Promise<typeof import('../contract/field-schemas.js')> | undefined;
let endpointsLoaded: Promise<typeof import('../contract/endpoints.js')> | undefined;
/**
 * The contract's zod schemas, loaded on first use: a body's schema on the first call that sends
 * one, every reply schema only under --debug. The promise is kept, because each `import()` of a
 * loaded module still resolves it again (~20 µs a row of a bulk run).
 */
function bodySchemasModule() {
  bodiesLoaded ??= import('../contract/field-schemas.js');
  return bodiesLoaded;
}
export function contractSchemas() {
  endpointsLoaded ??= import('../contract/endpoints.js');
  return endpointsLoaded;
}

function stringify(query: Query): Record<string, string> {
  return Object.fromEntries(Object.entries(query).map(([name, value]) => [name, String(value)]));
}

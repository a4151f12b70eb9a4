/**
 * What `sandbox proxy` checks, with the contract's own schemas (src/contract/endpoints.ts), the
 * ones the sandbox validates requests with: the request's query and body, and the reply's envelope
 * and, on a success, its `data` and `data1`. What the contract tolerates from the real service is
 * no break: an error envelope without `data`, timestamps in nanoseconds with an offset, the
 * `tokenize_mono` path, fields the contract does not know.
 */
import type * as z from 'zod';
import { ENDPOINTS, type EndpointDef } from '../../contract/endpoints.js';
import { Envelope } from '../../contract/schemas.js';
import { valueAt } from '../validation.js';
import type { Violation } from './violations.js';

type Issue = z.core.$ZodIssue;

interface Route {
  def: EndpointDef;
  method: string;
  pattern: RegExp;
}

/** Every operation at each of its paths: `:id` is one path segment. */
const ROUTES: Route[] = ENDPOINTS.flatMap((def) =>
  [def.path, ...(def.otherPaths ?? [])].map((path) => ({
    def,
    method: def.method,
    pattern: new RegExp(`^${path.replace(/:[a-z_]+/g, '[^/]+')}$`),
  })),
);

/** The operation a request is for, or undefined when the contract has none at that method and path. */
export function operationFor(method: string, path: string): EndpointDef | undefined {
  return ROUTES.find((route) => route.method === method && route.pattern.test(path))?.def;
}

/** A request to no operation of the contract. */
export function unknownOperation(method: string, path: string): Violation {
  return {
    operation: `${method} ${path}`,
    side: 'request',
    path: '(operation)',
    expected: 'one of its operations at this method and path',
    received: `${method} ${path}`,
  };
}

/** The request's breaks: the product id it needs, its query and its body. */
export function checkRequest(def: EndpointDef, query: URLSearchParams, body: unknown): Violation[] {
  const found: Violation[] = [];
  const raw: Record<string, string> = {};
  for (const [name, value] of query) if (name !== 'product-id') raw[name] ??= value;
  if (def.productId && !query.get('product-id')) {
    found.push(at(def, 'request', 'query.product-id', 'a product id', '(absent)'));
  }
  found.push(...issues(def, 'request', 'query', def.query.safeParse(raw), raw));
  if (def.body) found.push(...issues(def, 'request', 'body', def.body.safeParse(body), body));
  return found;
}

/**
 * The reply's breaks. `text` undefined: the body was not JSON (`what` says what it was instead).
 * On `success` (and `exists` when it carries `data`), the payloads must be the operation's.
 */
export function checkReply(def: EndpointDef, json: unknown, what: string): Violation[] {
  if (json === undefined) return [at(def, 'reply', '(whole reply)', "the API's JSON envelope", what)];
  const envelope = Envelope.safeParse(json);
  if (!envelope.success) return issues(def, 'reply', '', envelope, json);
  const { status } = envelope.data;
  const carries = status === 'success' || (status === 'exists' && 'data' in envelope.data);
  if (!carries) return [];
  const found = issues(def, 'reply', 'data', def.reply.data.safeParse(envelope.data.data), envelope.data.data);
  if (def.reply.data1) {
    found.push(...issues(def, 'reply', 'data1', def.reply.data1.safeParse(envelope.data.data1), envelope.data.data1));
  }
  return found;
}

function at(def: EndpointDef, side: Violation['side'], path: string, expected: string, received: string): Violation {
  return { operation: def.key, side, path, expected, received };
}

function issues(
  def: EndpointDef,
  side: Violation['side'],
  root: string,
  result: z.ZodSafeParseResult<unknown>,
  input: unknown,
): Violation[] {
  if (result.success) return [];
  return result.error.issues.map((issue) => {
    const value = valueAt(input, issue.path);
    return at(def, side, pathText(root, issue.path), expectedOf(issue, value), shown(value));
  });
}

/** `data` + [`terms`, `rate`] → `data.terms.rate`; indexes as `[2]`. */
function pathText(root: string, path: readonly PropertyKey[]): string {
  let text = root;
  for (const key of path) text += typeof key === 'number' ? `[${key}]` : `${text === '' ? '' : '.'}${String(key)}`;
  return text === '' ? '(envelope)' : text;
}

const ARTICLE: Record<string, string> = {
  string: 'a text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

function expectedOf(issue: Issue, value: unknown): string {
  if (issue.code === 'invalid_type') return ARTICLE[issue.expected] ?? issue.expected;
  if (issue.code === 'invalid_value') return `one of ${issue.values.map((known) => JSON.stringify(known)).join(', ')}`;
  if (value === undefined) return 'a value';
  return issue.message.replace(/^Invalid (string|input): /, '');
}

const SHOWN_LENGTH = 80;

/** The value that came, as JSON, cut short; `(absent)` when there was none. */
function shown(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= SHOWN_LENGTH ? text : `${text.slice(0, SHOWN_LENGTH)}…`;
}

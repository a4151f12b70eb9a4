/** Turns zod's issues into the one 400 message that names every bad field. */
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/** The value at a zod issue's `path` in `input`, or undefined. */
export function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'must be text',
  number: 'must be a number',
  int: 'must be a whole number',
  boolean: 'must be true or false',
  object: 'must be a JSON object',
  array: 'must be a list',
};

function describe(issue: Issue, input: unknown): string {
  if (issue.path.length > 0 && valueAt(input, issue.path) === undefined) return 'is required';
  if (issue.code === 'invalid_type' && issue.message.startsWith('Invalid input')) {
    return TYPE_WORDS[issue.expected] ?? `must be of type ${issue.expected}`;
  }
  if (issue.code === 'invalid_value') {
    const values = issue.values.map(String);
    return values.length === 1 ? `must be ${values[0]}` : `must be one of ${values.join(', ')}`;
  }
  return issue.message;
}

/**
 * `field (what is wrong)` once per bad field, in the order zod found them; `root` names the whole
 * input (e.g. `body`) when the issue is about it rather than one of its fields.
 */
export function describeIssues(issues: readonly Issue[], input: unknown, root: string): string[] {
  const seen = new Map<string, string>();
  for (const issue of issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : root;
    if (!seen.has(field)) seen.set(field, `${field} (${describe(issue, input)})`);
  }
  return [...seen.values()];
}

export function invalidFieldsMessage(parts: readonly string[]): string {
  return `Invalid fields: ${parts.join(', ')}`;
}

/**
 * `product-id` given more than once (`?product-id=1&product-id=2`): refused, rather than one of
 * them picked, since the caller meant one product and a proxy or a script may have added the other.
 */
export function productIdProblems(def: { productId: boolean }, query: unknown): string[] {
  const value = (query as Record<string, unknown> | null)?.['product-id'];
  return def.productId && Array.isArray(value) ? ['product-id (must be given once)'] : [];
}

/**
 * The 400 message for a body that is not JSON: where the parser stopped, never what it read there.
 * V8's own message quotes the text around the fault (`Unexpected token 'T', ..."assword": Tr0ub4…`),
 * which would put a password in the reply and the request log; only its numbers are kept.
 */
export function malformedJsonMessage(parseError: unknown): string {
  const where = /\(line (\d+) column (\d+)\)/.exec(String((parseError as Error)?.message));
  const at = where ? ` (line ${where[1]}, column ${where[2]})` : '';
  return `The request body is not valid JSON${at}: check its quotes, commas and brackets`;
}

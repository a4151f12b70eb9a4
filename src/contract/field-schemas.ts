/**
 * The zod schemas of what is sent — each operation's body and query — built from the contract's
 * descriptions (./fields.ts, ./operations.ts) the first time an operation needs them, and kept:
 * loading zod is ~13 ms of start-up, building every schema of the contract ~25 ms more
 * (bench/README.md), so a command pays only for the operation it sends. The client imports this
 * module, not ./endpoints.ts, so it never builds the reply schemas.
 *
 * Request bodies validate strictly by type and strip unknown keys; the sandbox answers 400 with
 * every failing field, and the CLI checks the same rules before sending.
 */
import * as z from 'zod';
import { BODY_FIELDS, type BodyKey, type FieldDef, type FieldKind, lengthRule } from './fields.js';
import { carriesBody, type OperationKey, operation, type QueryParam, type QuerySpec } from './operations.js';
import {
  DATE_PATTERN,
  EMAIL_PATTERN,
  FREQUENCIES,
  isCalendarDay,
  isMoney,
  isWholeText,
  MONEY_PROBLEM,
  PHONE_PATTERN,
  queryWholeProblem,
  RATE_TYPES,
  TENURED_IN,
  WHOLE_MAX,
  WHOLE_PROBLEM,
} from './vocabulary.js';

/** A calendar date in the form the API uses for dates: yyyy-mm-dd, and a real day of the calendar. */
export const dateSchema = () =>
  z.string().regex(DATE_PATTERN, 'must be a date as yyyy-mm-dd').refine(isCalendarDay, 'must be a real calendar date');

const ORG_ID_PROBLEM = 'must be your organisation id, a whole number';

/** A whole number of 0 or more within the contract's range (./vocabulary.ts). */
export const wholeSchema = () =>
  z.number({ error: WHOLE_PROBLEM }).int(WHOLE_PROBLEM).min(0, WHOLE_PROBLEM).max(WHOLE_MAX, WHOLE_PROBLEM);

/** The rule of a kind for a value that is present; `required` decides elsewhere whether it may be absent. */
function kindSchema(kind: FieldKind, required: boolean): z.ZodType {
  switch (kind) {
    case 'text':
    case 'contact-phone':
      // An optional text may be empty (the API stores what it is given); a required one may not.
      return required ? z.string().trim().min(1, 'must not be empty') : z.string();
    case 'secret':
      return z.string().min(1, 'must not be empty');
    case 'email':
      return z.email({ pattern: EMAIL_PATTERN, error: 'must be an e-mail address' });
    case 'phone':
      return z.string().regex(PHONE_PATTERN, 'must be a phone number in the +234 form, e.g. +2348012345678');
    case 'url':
      return z.url({ protocol: /^https?$/, error: 'must be an http or https URL' });
    case 'date':
      return dateSchema();
    case 'money':
      // Every way of missing the range gets the one message that states it (./vocabulary.ts).
      return z.number({ error: MONEY_PROBLEM }).refine(isMoney, MONEY_PROBLEM);
    case 'rate':
      return z.number().finite().nonnegative('must not be negative');
    case 'count':
      return z.number().int('must be a whole number').positive('must be at least 1');
    case 'whole':
      return wholeSchema();
    case 'whole-text':
      return z.string().refine(isWholeText, `${WHOLE_PROBLEM} written as text, e.g. "12"`);
    case 'org-id':
      return z.number({ error: ORG_ID_PROBLEM }).int(ORG_ID_PROBLEM).positive('must be your organisation id');
    case 'bool':
      return z.boolean();
    case 'tenured-in':
      return z.enum(TENURED_IN);
    case 'rate-type':
      return z.enum(RATE_TYPES);
    case 'frequency':
      return z.enum(FREQUENCIES);
  }
}

export function fieldSchema(field: FieldDef): z.ZodType {
  const base = kindSchema(field.kind, field.required === true);
  const schema =
    field.maxLength !== undefined && base instanceof z.ZodString
      ? base.max(field.maxLength, `must be ${lengthRule(field.maxLength)}`)
      : base;
  return field.required ? schema : schema.optional();
}

/** The object schema of a list of fields (strict types, unknown keys stripped). */
export function fieldsSchema(fields: readonly FieldDef[]): z.ZodObject {
  return z.object(Object.fromEntries(fields.map((field) => [field.name, fieldSchema(field)])));
}

const builtBodies = new Map<string, z.ZodObject>();

/**
 * On a body checked whole with its operation's schema (src/input/body.ts, buildOperationBody): for
 * which operation. The body is frozen there, so it stays as it was checked: the client sends it
 * without checking it again (a bulk row was checked three times). A property, not a WeakMap entry:
 * a WeakMap's entry cost a bulk row ~0.4 µs and the GC more. Not enumerable, so neither sent nor
 * compared.
 */
const CHECKED_FOR = Symbol('checked for');

/** `body`, frozen, as checked for operation `key` by its schema. */
export function markChecked<T extends object>(key: BodyKey, body: T): T {
  // A body frozen already (none is today: zod makes each one new) stays unmarked, and is checked again.
  if (Object.isExtensible(body)) Object.defineProperty(body, CHECKED_FOR, { value: key });
  return Object.freeze(body);
}

/** The operation `body` was checked for (markChecked), if it was. */
export function checkedFor(body: unknown): BodyKey | undefined {
  return typeof body === 'object' && body !== null ? (body as { [CHECKED_FOR]?: BodyKey })[CHECKED_FOR] : undefined;
}

/** The schema of an operation's body, built on first use. */
export function bodySchema(key: BodyKey): z.ZodObject {
  return bodySchemaWithout(key);
}

/**
 * The schema of an operation's body without one field, built on first use: `user create` checks
 * everything but the password before it asks for or reads the password.
 */
export function bodySchemaWithout(key: BodyKey, left?: string): z.ZodObject {
  const name = left === undefined ? key : `${key} without ${left}`;
  let schema = builtBodies.get(name);
  if (!schema) {
    const fields: readonly FieldDef[] = BODY_FIELDS[key];
    schema = fieldsSchema(fields.filter((field) => field.name !== left));
    builtBodies.set(name, schema);
  }
  return schema;
}

/**
 * Digits in a query, as their number (./vocabulary.ts says which). The `meta` is what the OpenAPI
 * document says of it (src/sandbox/openapi.ts); z.toJSONSchema alone would say "a string".
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

function paramSchema(param: QueryParam): z.ZodType {
  const schema: z.ZodType = (() => {
    switch (param.type) {
      case 'email':
        return z.email({ pattern: EMAIL_PATTERN, error: 'must be an e-mail address' });
      case 'literal':
        return z.literal(param.value);
      case 'text':
        return z.string();
      case 'date':
        return dateSchema();
      case 'positive-int':
        return wholeText(1);
      case 'non-negative-int':
        return wholeText(0);
    }
  })();
  return param.optional ? schema.optional() : schema;
}

/** The zod schema of a query description: coerces numbers, strips parameters it does not name. */
export function querySchema(spec: QuerySpec): z.ZodObject {
  return z.object(Object.fromEntries(Object.entries(spec).map(([name, param]) => [name, paramSchema(param)])));
}

export interface RequestSchemas {
  query: z.ZodObject;
  body?: z.ZodObject;
}

const builtRequests = new Map<OperationKey, RequestSchemas>();

/** The query and body schemas of one operation, built on first use. */
export function requestSchemas(key: OperationKey): RequestSchemas {
  let schemas = builtRequests.get(key);
  if (!schemas) {
    schemas = { query: querySchema(operation(key).query) };
    if (carriesBody(key)) schemas.body = bodySchema(key);
    builtRequests.set(key, schemas);
  }
  return schemas;
}

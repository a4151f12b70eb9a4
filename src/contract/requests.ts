/**
 * The zod schemas of what is sent — each operation's query and body — built from the contract's
 * descriptions (./operations.ts, ./fields.ts) the first time an operation needs them. The client
 * imports this module, not ./endpoints.ts, so a command pays for zod and its own operation's
 * schemas, never for every reply schema (bench/README.md).
 */
import * as z from 'zod';
import { bodySchema, dateSchema } from './field-schemas.js';
import { carriesBody, type OperationKey, operation, type QueryParam, type QuerySpec } from './operations.js';
import { queryWholeProblem } from './ranges.js';

/**
 * Digits in a query, as their number (./ranges.ts says which). The `meta` is what the OpenAPI
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
        return z.email('must be an e-mail address');
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

const built = new Map<OperationKey, RequestSchemas>();

/** The query and body schemas of one operation, built on first use. */
export function requestSchemas(key: OperationKey): RequestSchemas {
  let schemas = built.get(key);
  if (!schemas) {
    schemas = { query: querySchema(operation(key).query) };
    if (carriesBody(key)) schemas.body = bodySchema(key);
    built.set(key, schemas);
  }
  return schemas;
}

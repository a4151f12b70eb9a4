/**
 * The contract table with its schemas: every operation of ./operations.ts with the zod schemas of
 * its query and body (./field-schemas.ts, built from the same descriptions) and of its reply.
 *
 * The sandbox's routes, the OpenAPI document and the tests read this table; the CLI's client
 * needs only ./field-schemas.ts, so a command never builds the reply schemas (bench/README.md). So
 * they cannot drift apart, and "every operation is covered" is a loop over ENDPOINTS.
 *
 * - `reply.data` / `reply.data1` validate the envelope's payloads of a successful reply.
 */
import * as z from 'zod';
import { requestSchemas } from './field-schemas.js';
import type { BodyKey, BodyOf } from './fields.js';
import {
  fillPath,
  type HttpMethod,
  OPERATIONS,
  type Operation,
  type OperationDef,
  type OperationKey,
  type QueryOf,
  type RecordName,
  type ReplyShape,
} from './operations.js';
import { recordSchema } from './schemas.js';

export { fillPath, type HttpMethod };

/** An operation of ./operations.ts with its schemas in place of its descriptions. */
export interface EndpointDef extends Omit<OperationDef, 'query' | 'reply' | 'body'> {
  query: z.ZodObject;
  body?: z.ZodObject;
  reply: { data: z.ZodType; data1?: z.ZodType };
}

type RecordTypes = { [R in RecordName]: z.infer<ReturnType<typeof recordSchema<R>>> };

/** The value a reply shape describes. */
export type ShapeValue<S extends ReplyShape> = S extends `${infer R extends RecordName}[]`
  ? RecordTypes[R][]
  : S extends `${infer R extends RecordName}?`
    ? RecordTypes[R] | null
    : S extends RecordName
      ? RecordTypes[S]
      : S extends 'boolean'
        ? boolean
        : S extends 'string'
          ? string
          : null;

/** The zod schema of a reply shape. */
export function shapeSchema(shape: ReplyShape): z.ZodType {
  if (shape === 'none') return z.null().optional();
  if (shape === 'boolean') return z.boolean();
  if (shape === 'string') return z.string();
  if (shape.endsWith('[]')) return z.array(recordSchema(shape.slice(0, -2) as RecordName));
  if (shape.endsWith('?')) return recordSchema(shape.slice(0, -1) as RecordName).nullable();
  return recordSchema(shape as RecordName);
}

function replySchemas(def: OperationDef): EndpointDef['reply'] {
  const { data, data1 }: OperationDef['reply'] = def.reply;
  return data1 === undefined ? { data: shapeSchema(data) } : { data: shapeSchema(data), data1: shapeSchema(data1) };
}

export type EndpointKey = OperationKey;
/**
 * Each operation with its schemas, typed per key: `z.infer<Endpoint<K>['query']>` is the query
 * the description says, and `body` the body its fields say (./fields.ts `BodyOf`).
 */
type EndpointOf = {
  [K in OperationKey]: Omit<Operation<K>, 'query' | 'reply' | 'body'> & {
    query: z.ZodType<QueryOf<K>>;
    reply: { data: z.ZodType<ReplyData<K>> };
  } & (K extends BodyKey ? { body: z.ZodType<BodyOf<K>> } : unknown);
}[OperationKey];
export type Endpoint<K extends EndpointKey = EndpointKey> = Extract<EndpointOf, { key: K }>;

export const ENDPOINTS: readonly EndpointDef[] = (OPERATIONS as readonly OperationDef[]).map(
  ({ body: _fields, ...operation }) => ({
    ...operation,
    ...requestSchemas(operation.key as OperationKey),
    reply: replySchemas(operation),
  }),
);

const BY_KEY = new Map<string, EndpointDef>(ENDPOINTS.map((endpoint) => [endpoint.key, endpoint]));

export function endpoint<K extends EndpointKey>(key: K): Endpoint<K> {
  const found = BY_KEY.get(key);
  if (!found) throw new Error(`unknown endpoint ${key}`);
  // The table's rows are built from the descriptions the type is computed from.
  return found as unknown as Endpoint<K>;
}

/** An operation with its schemas, untyped: for code that walks the table (the sandbox's routes, tests). */
export function endpointDef(key: string): EndpointDef {
  const found = BY_KEY.get(key);
  if (!found) throw new Error(`unknown endpoint ${key}`);
  return found;
}

/** The payload type of a successful reply of an endpoint. */
export type ReplyData<K extends EndpointKey> = ShapeValue<Operation<K>['reply']['data']>;

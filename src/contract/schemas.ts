/**
 * The zod schemas of every resource in the Lending Origination API (spec section 2).
 *
 * These are the reply schemas (what the API returns): loose objects that accept fields they do not
 * know, because the real API adds fields over time, but reject known fields of the wrong type.
 * Each record's schema is built from its description (./records.ts): a field's kind gives its rule.
 * The request bodies' schemas are built from the field table (./fields.ts, ./field-schemas.ts).
 */
import * as z from 'zod';
import { NESTED_RECORDS } from './record-table.js';
import {
  type FieldSpec,
  type Fields,
  type KindValues,
  RECORDS,
  type RecordName,
  type RecordSpec,
  type ValueKind,
} from './records.js';
import { ENVELOPE_STATUSES, ISO_DATE_TIME } from './vocabulary.js';

// The zod-free words and types (./vocabulary.ts), for the modules that already import this one.
export {
  FREQUENCIES,
  type Frequency,
  PHONE_PATTERN,
  RATE_TYPES,
  type RateType,
  TENURED_IN,
  type TenuredIn,
  ZERO_TIMESTAMP,
} from './vocabulary.js';

export const Timestamp = z.string().regex(ISO_DATE_TIME, 'must be an ISO 8601 date-time');
export type Timestamp = z.infer<typeof Timestamp>;

// Fields of the same kind share one schema instead of each building its own: a zod schema is
// immutable, so sharing changes no result, and building ~300 of them (`z.number().int()` is two
// schemas, and among zod's costliest) was most of the time this module takes to load, on the
// start-up of every network command (bench/README.md).
const Int = z.number().int();
const Id = z.number().int().positive();
const Num = z.number();
const Text = z.string();
const KIND_SCHEMAS = {
  id: Id,
  count: Int,
  'whole-money': Int,
  number: Num,
  money: Num,
  rate: Num,
  text: Text,
  date: Text,
  timestamp: Timestamp,
  bool: z.boolean(),
  texts: z.array(z.string()),
} as const satisfies { [K in ValueKind]: z.ZodType<KindValues[K]> };
type KindSchemas = typeof KIND_SCHEMAS;
const OPTIONAL_SCHEMAS = new Map<ValueKind, z.ZodType>();

type BaseSchema<F> = F extends { kind: 'record'; of: RecordSpec<infer N> }
  ? RecordSchema<N>
  : F extends { kind: 'records'; of: RecordSpec<infer N> }
    ? z.ZodArray<RecordSchema<N>>
    : F extends { kind: infer K extends ValueKind }
      ? KindSchemas[K]
      : never;
type NullableSchema<F, S extends z.ZodType> = F extends { nullable: true } ? z.ZodNullable<S> : S;
type FieldSchema<F> = F extends { optional: true }
  ? z.ZodOptional<NullableSchema<F, BaseSchema<F>>>
  : NullableSchema<F, BaseSchema<F>>;
/** The schema of a record: one field schema per described field, other fields accepted. */
export type RecordSchema<F extends Fields> = z.ZodObject<
  { -readonly [K in keyof F]: FieldSchema<F[K]> },
  z.core.$loose
>;

const built = new Map<RecordSpec, z.ZodObject>();

/**
 * A record's schema, built once (a nested record's too, shared by every record that holds it).
 * The signature gives it the type read off the description's literal types (`RecordSchema`), the
 * body builds it from the same description: no cast between the two.
 */
function schemaOfRecord<F extends Fields>(record: RecordSpec<F>): RecordSchema<F>;
function schemaOfRecord(record: RecordSpec): z.ZodObject {
  let schema = built.get(record);
  if (!schema) {
    const shape = Object.fromEntries(Object.entries(record.fields).map(([name, field]) => [name, fieldSchema(field)]));
    schema = z.looseObject(shape);
    built.set(record, schema);
  }
  return schema;
}

function fieldSchema(field: FieldSpec): z.ZodType {
  if (field.kind === 'record' || field.kind === 'records') {
    const record = schemaOfRecord(field.of);
    return optionalWhen(field, nullableWhen(field, field.kind === 'record' ? record : z.array(record)));
  }
  if (field.optional && !field.nullable) return optionalOf(field.kind);
  return optionalWhen(field, nullableWhen(field, KIND_SCHEMAS[field.kind]));
}

/** The optional schema of a kind, one per kind (see KIND_SCHEMAS). */
function optionalOf(kind: ValueKind): z.ZodType {
  let schema = OPTIONAL_SCHEMAS.get(kind);
  if (!schema) {
    schema = KIND_SCHEMAS[kind].optional();
    OPTIONAL_SCHEMAS.set(kind, schema);
  }
  return schema;
}

const nullableWhen = (field: FieldSpec, schema: z.ZodType) => (field.nullable ? schema.nullable() : schema);
const optionalWhen = (field: FieldSpec, schema: z.ZodType) => (field.optional ? schema.optional() : schema);

// ---------------------------------------------------------------------------------------------
// 2.1 Envelope

export const EnvelopeStatus = z.enum(ENVELOPE_STATUSES);
export type EnvelopeStatus = z.infer<typeof EnvelopeStatus>;

export const Envelope = z.looseObject({
  status: EnvelopeStatus,
  message: Text,
  // Absent on the real service's error replies (./vocabulary.ts isEnvelope).
  data: z.unknown().optional(),
  data1: z.unknown().optional(),
});
export type Envelope = z.infer<typeof Envelope>;

// ---------------------------------------------------------------------------------------------
// The records (./record-table.ts)

/** The schema of each record a reply may carry, by its name (./operations.ts `RecordName`), built from its description. */
export function recordSchema<R extends RecordName>(name: R): RecordSchema<(typeof RECORDS)[R]['fields']> {
  return schemaOfRecord(RECORDS[name] as RecordSpec<(typeof RECORDS)[R]['fields']>);
}

export const UserCreateReply = schemaOfRecord(RECORDS.user);
export type UserCreateReply = z.infer<typeof UserCreateReply>;
export const UserListItem = schemaOfRecord(RECORDS.userListItem);
export type UserListItem = z.infer<typeof UserListItem>;
export const Terms = schemaOfRecord(NESTED_RECORDS.terms);
export type Terms = z.infer<typeof Terms>;
export const LoanRequest = schemaOfRecord(RECORDS.loanRequest);
export type LoanRequest = z.infer<typeof LoanRequest>;
export const LoanRequestPage = schemaOfRecord(RECORDS.loanRequestPage);
export type LoanRequestPage = z.infer<typeof LoanRequestPage>;
export const CustomField = schemaOfRecord(NESTED_RECORDS.customField);
export type CustomField = z.infer<typeof CustomField>;
export const DocumentRecord = schemaOfRecord(RECORDS.document);
export type DocumentRecord = z.infer<typeof DocumentRecord>;
export const BusinessRecord = schemaOfRecord(RECORDS.business);
export type BusinessRecord = z.infer<typeof BusinessRecord>;
export const BankDetailsRecord = schemaOfRecord(RECORDS.bankDetails);
export type BankDetailsRecord = z.infer<typeof BankDetailsRecord>;
export const GuarantorRecord = schemaOfRecord(RECORDS.guarantor);
export type GuarantorRecord = z.infer<typeof GuarantorRecord>;
export const EmploymentRecord = schemaOfRecord(RECORDS.employment);
export type EmploymentRecord = z.infer<typeof EmploymentRecord>;

/**
 * A successful reply must carry what the contract says it returns (src/contract/operations.ts
 * `reply`): a record where it returns one, a list of records where it returns a list, and within
 * them, the nested records the record table names (src/contract/record-table.ts). Only a shape of
 * `none` or `record?` may be null or absent. Without this, `{"status":"success"}` would reach the
 * printer as a loan request of `null`, and a list holding a `null` would end a walk as an
 * "unexpected error" (exit 1) or be printed as an empty row.
 *
 * Only the kind of value is checked here (object, list of objects), which is what the printers and
 * walks rely on, and the ids: a field of kind `id` (src/contract/records.ts) is a whole number from
 * 1, and one that is not is refused here — a bulk run records the ids it is given in its journal,
 * and a walk or a look-up goes on from them. Any other field's value is the printer's to read
 * tolerantly (`--debug` compares the whole reply with the contract's schema).
 */
import { type OperationDef, type ReplyShape, replyRecord } from '../contract/operations.js';
import { type NestedField, RECORDS, type RecordSpec } from '../contract/records.js';
import { NetworkError } from '../errors.js';
import type { ApiResult } from './reply.js';

/** Throws the one-line NetworkError (exit 5) for a success whose payload is missing or of the wrong kind. */
export function requirePayload(def: OperationDef, result: ApiResult, check: () => string | undefined): void {
  // `exists` (a borrower's e-mail already known) carries only a message on the real service.
  if (result.status !== 'success') return;
  for (const part of ['data', 'data1'] as const) {
    const shape = def.reply[part];
    if (shape === undefined || shape === 'none') continue;
    const problem = payloadProblem(shape, part === 'data' ? result.data : result.data1);
    if (problem === undefined) continue;
    const command = def.method === 'GET' ? undefined : check();
    throw new NetworkError(
      `The API answered "${result.status}" to "${def.summary.toLowerCase()}" ${problem.replace('PART', part)}.`,
      command
        ? `The change was probably made; check with: ${command}`
        : "Try again; if it keeps happening, tell the API's operator.",
    );
  }
}

/** What is wrong with a payload for its shape (PART stands for `data` or `data1`), or undefined. */
function payloadProblem(shape: ReplyShape, value: unknown): string | undefined {
  const optional = shape.endsWith('?');
  if (value === null || value === undefined) {
    return optional ? undefined : `without the PART it returns (${shape})`;
  }
  const name = replyRecord(shape);
  // Plain values (`user exists`' boolean, a link's text) are read by their own commands.
  if (name === undefined) return undefined;
  const wrong = shape.endsWith('[]') ? listProblem(RECORDS[name], value) : recordProblem(RECORDS[name], value);
  return wrong && `with PART that is not the ${shape} it returns (${wrong})`;
}

function listProblem(record: RecordSpec, value: unknown): string | undefined {
  if (!Array.isArray(value)) return `${kindOf(value)} instead of a list`;
  for (const [index, item] of value.entries()) {
    const wrong = recordProblem(record, item);
    if (wrong) return `item ${index + 1}: ${wrong}`;
  }
  return undefined;
}

function recordProblem(record: RecordSpec, value: unknown): string | undefined {
  if (!isObject(value)) return `${kindOf(value)} instead of a record`;
  for (const [field, optional] of idFields(record)) {
    const id = value[field];
    // An optional id (approved_by_id) may come as 0, the API's zero value for "not set", as an
    // unset timestamp comes as 0001-01-01.
    if (id === null || id === undefined || isId(id) || (optional && id === 0)) continue;
    return `${field} ${JSON.stringify(id)} is not an id (a whole number from 1)`;
  }
  for (const [field, spec] of nestedFields(record)) {
    const nested = value[field];
    // An absent or null nested record is the printer's to show as empty (`-`), as the API may omit it.
    if (nested === null || nested === undefined) continue;
    const wrong = spec.kind === 'records' ? listProblem(spec.of, nested) : recordProblem(spec.of, nested);
    if (wrong) return `${field}: ${wrong}`;
  }
  return undefined;
}

/** Whether `value` is an id as the contract has them: a whole number from 1, exact in JSON. */
export function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

const idsOf = new Map<RecordSpec, Array<[name: string, optional: boolean]>>();

/** A record's fields of kind `id`, and whether each is optional, found once per record. */
function idFields(record: RecordSpec): Array<[name: string, optional: boolean]> {
  let fields = idsOf.get(record);
  if (!fields) {
    fields = Object.entries(record.fields).flatMap(
      ([name, spec]): Array<[string, boolean]> =>
        spec.kind === 'id' ? [[name, 'optional' in spec && spec.optional === true]] : [],
    );
    idsOf.set(record, fields);
  }
  return fields;
}

const nestedOf = new Map<RecordSpec, Array<[string, NestedField]>>();

/** A record's fields that hold records, found once per record (a walk checks every item of every page). */
function nestedFields(record: RecordSpec): Array<[string, NestedField]> {
  let fields = nestedOf.get(record);
  if (!fields) {
    fields = Object.entries(record.fields).flatMap(([name, spec]) => ('of' in spec ? [[name, spec]] : []));
    nestedOf.set(record, fields);
  }
  return fields;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return 'a text';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

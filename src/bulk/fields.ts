/**
 * A row's fields as the single-row commands' parsers want them: text, or absent. An empty cell
 * (CSV) or `null` (NDJSON) is absent; a number or boolean is its text (`"amount": 50000`); an
 * object or array is an error naming the field.
 */
import { UsageError } from '../errors.js';
import type { FieldSpec } from '../input/body.js';

export function fieldText(fields: Record<string, unknown>, key: string): string | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new UsageError(`${key} must be text or a number, not ${Array.isArray(value) ? 'a list' : 'an object'}.`);
}

/**
 * FieldSpecs for buildBody (src/input/body.ts) whose values come from a row: the "flag" of each
 * is the field's own name, so messages say `email must be an e-mail address (got "x")` and
 * `Missing firstname, phone.`
 */
export function rowFields(
  fields: Record<string, unknown>,
  specs: ReadonlyArray<{ key: string; parse: NonNullable<FieldSpec['parse']> }>,
): FieldSpec[] {
  return specs.map(({ key, parse }) => ({ key, flag: key, value: fieldText(fields, key), parse }));
}

/** Columns no task knows: named once on stderr, then ignored. */
export function unknownColumns(fields: Record<string, unknown>, known: ReadonlySet<string>): string[] {
  return Object.keys(fields).filter((key) => !known.has(key));
}

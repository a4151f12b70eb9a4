/**
 * A row's fields as the single-row commands' parsers want them: text, or absent. An empty cell
 * (CSV) or `null` (NDJSON) is absent; a number or boolean is its text (`"amount": 50000`); an
 * object or array is an error naming the field.
 */
import { BODY_FIELDS, type BodyKey, type FieldDef } from '../contract/fields.js';
import { UsageError } from '../errors.js';
import type { FieldSpec } from '../input/body.js';
import { parserOf } from '../input/field-parsers.js';

export function fieldText(fields: Record<string, unknown>, key: string): string | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new UsageError(`${key} must be text or a number, not ${Array.isArray(value) ? 'a list' : 'an object'}.`);
}

/**
 * FieldSpecs for buildBody (src/input/body.ts) of operation `key`, whose values come from a row:
 * a column is named as the API names the field (src/contract/fields.ts), and so is the "flag" of
 * each, so messages say `email must be an e-mail address (got "x")` and `Missing firstname, phone.`
 */
export function rowFields(key: BodyKey, fields: Record<string, unknown>, except: readonly string[] = []): FieldSpec[] {
  const defs: readonly FieldDef[] = BODY_FIELDS[key];
  return defs
    .filter((def) => !except.includes(def.name))
    .map((def) => ({ key: def.name, flag: def.name, value: fieldText(fields, def.name), parse: parserOf(def) }));
}

/** The columns a row of operation `key` may have: its body fields. */
export function bodyColumns(key: BodyKey): string[] {
  return BODY_FIELDS[key].map((def) => def.name);
}

/** The columns every row of operation `key` needs: its required body fields, each a column of its own. */
export function requiredColumns(key: BodyKey): string[][] {
  const defs: readonly FieldDef[] = BODY_FIELDS[key];
  return defs.filter((def) => def.required).map((def) => [def.name]);
}

/**
 * Builds a request body from `--data` and flags, and validates it with the contract's schema
 * before anything is sent, so a wrong value costs no request.
 *
 * - `--data` gives a starting object; a flag that was passed overrides the field of the same name.
 * - Each field may have a parser (phone, amount, enum…): it turns what a flag typed into the value
 *   to send, and normalises a string the same field holds in `--data` (so `"phone": "0801…"` or
 *   `"frequency": "weekly"` in a file work like the flags do).
 * - The merged body is checked with the endpoint's zod schema; the first problems are reported in
 *   one line that names the flags to fix (exit 2).
 */
import type { z } from 'zod';
import { bodySchema, markChecked } from '../contract/field-schemas.js';
import type { BodyKey, BodyOf } from '../contract/fields.js';
import { inputError, UsageError } from '../errors.js';

type FlagValue = string | boolean | undefined;

export interface FieldSpec {
  /** The body key, as the API spells it. */
  key: string;
  /** The flag that sets it, e.g. `--account-name`. */
  flag: string;
  /** What the operator passed: text for a value flag, a boolean for a switch, undefined if absent. */
  value: FlagValue;
  /** Turns typed text into the value to send; throws a UsageError naming the source. */
  parse?: (raw: string, source: string) => unknown;
}

export interface BuiltBody<T> {
  body: T;
  /** Keys of `--data` the endpoint does not know (they are not sent). */
  ignored: string[];
}

/** The source name used in messages about a field that came from `--data`. */
function dataSource(key: string): string {
  return `field "${key}" of --data`;
}

export interface BuildOptions {
  /**
   * Flags the caller already knows are missing (a secret read later, e.g. `--password-stdin`):
   * named in the same "Missing …" line, so one run tells everything to add.
   */
  alsoMissing?: readonly string[];
  /** Appended to that line's hint, about the flags of `alsoMissing`. */
  alsoHint?: string;
}

export function buildBody<S extends z.ZodType>(
  schema: S,
  fields: readonly FieldSpec[],
  data?: Record<string, unknown>,
  options: BuildOptions = {},
): BuiltBody<z.infer<S>> {
  const merged: Record<string, unknown> = { ...(data ?? {}) };

  for (const field of fields) {
    if (field.value !== undefined) {
      merged[field.key] =
        typeof field.value === 'string' && field.parse ? field.parse(field.value, field.flag) : field.value;
    } else if (typeof merged[field.key] === 'string' && field.parse) {
      merged[field.key] = field.parse(merged[field.key] as string, dataSource(field.key));
    }
  }

  // Without --data only the fields' own keys are set (a bulk row's fields come this way).
  const ignored = data === undefined ? [] : keysNotIn(merged, fields);
  for (const key of ignored) delete merged[key];

  const result = schema.safeParse(merged);
  if (!result.success) {
    const flagOf = new Map(fields.map((field) => [field.key, field.flag]));
    const isMissing = (path: readonly PropertyKey[]) => path.length === 1 && merged[String(path[0])] === undefined;
    const issues = result.error.issues;
    if (issues.every((issue) => isMissing(issue.path))) {
      const flags = [
        ...new Set(issues.map((issue) => flagOf.get(String(issue.path[0])) ?? String(issue.path[0]))),
        ...(options.alsoMissing ?? []),
      ];
      const hint = 'Pass them as flags, or as fields of --data.';
      throw new UsageError(
        `Missing ${flags.join(', ')}.`,
        options.alsoMissing?.length && options.alsoHint ? `${hint} ${options.alsoHint}` : hint,
      );
    }
    throw inputError(
      issues.map((issue) => (isMissing(issue.path) ? { path: issue.path, message: 'is required' } : issue)),
      { what: 'Invalid input', flagFor: (key) => flagOf.get(key) },
    );
  }
  return { body: result.data as z.infer<S>, ignored };
}

function keysNotIn(merged: Record<string, unknown>, fields: readonly FieldSpec[]): string[] {
  const known = new Set(fields.map((field) => field.key));
  return Object.keys(merged).filter((key) => !known.has(key));
}

/**
 * The body of operation `key` from `--data` and the fields' flags (`fields`, e.g. from
 * src/commands/common/field-options.ts), checked with the schema built from the same field table.
 */
export function buildOperationBody<K extends BodyKey>(
  key: K,
  fields: readonly FieldSpec[],
  data?: Record<string, unknown>,
  options?: BuildOptions,
): BuiltBody<BodyOf<K>> {
  const built = buildBody(bodySchema(key), fields, data, options);
  // The schema is built from the fields BodyOf<K> is computed from: the two say the same.
  return { ...built, body: markChecked(key, built.body) } as BuiltBody<BodyOf<K>>;
}

/**
 * `--fields` checked once, before anything is sent, against the names the command's reply can
 * have — never against the rows that happen to come back (a list with no approved loan still
 * has `approved_by_id`). The names: the record's fields as its description has them
 * (src/contract/records.ts), and one level of nested keys (`terms.rate`), plus the columns of
 * src/output/columns.ts (dotted and computed ones too; joined ones on the lists that fill them).
 * A preset (`@export`) stands for its column set's list of names, expanded here before the check.
 */
import type { OperationKey } from '../contract/operations.js';
import { replyPayloadShape, replyRecord } from '../contract/operations.js';
import { RECORDS } from '../contract/records.js';
import { UsageError } from '../errors.js';
import { COLUMNS, type ResourceKind, replyKind } from './columns.js';
import { escapeControl } from './escape.js';

/** The field names a record of `kind` has: its columns first (the order a reader knows), then its description's. */
export async function recordFieldNames(kind: ResourceKind): Promise<string[]> {
  const set = COLUMNS[kind];
  const names = new Set<string>([...set.list, ...(set.detail ?? [])].map((column) => column.key));
  for (const name of set.computed ?? []) names.add(name);
  // Made by loanctl, not sent by the API: their columns are all their fields.
  if (kind === 'profile' || kind === 'queue') return [...names];
  for (const [name, field] of Object.entries(RECORDS[kind].fields)) {
    names.add(name);
    if (field.kind === 'record') for (const nested of Object.keys(field.of.fields)) names.add(`${name}.${nested}`);
  }
  return [...names];
}

/**
 * The names of what operation `key` replies with: a record's (or a list's) fields; a plain value
 * has one, `scalar` (its CSV header); a reply without a payload has none.
 */
export async function operationFieldNames(key: OperationKey, scalar?: string): Promise<string[]> {
  if (replyRecord(replyPayloadShape(key)) !== undefined) return recordFieldNames(replyKind(key));
  return scalar === undefined ? [] : [scalar];
}

/** `loan show`: its parts, the loan request's and employment's fields under them, and the loan request's own. */
export async function loanViewFieldNames(): Promise<string[]> {
  const loan = await recordFieldNames('loanRequest');
  const employment = await recordFieldNames('employment');
  return [
    ...LOAN_VIEW_PARTS,
    ...loan.map((name) => `loan_request.${name}`),
    ...employment.map((name) => `employment.${name}`),
    ...loan.filter((name) => !LOAN_VIEW_PARTS.includes(name)),
  ];
}

const LOAN_VIEW_PARTS: readonly string[] = ['loan_request', 'progress', 'bank_details', 'guarantors', 'employment'];

/** The names of a list whose rows take its column set's joined columns too (`borrower_email`). */
export async function joinedFieldNames(kind: ResourceKind): Promise<string[]> {
  return [...(await recordFieldNames(kind)), ...(COLUMNS[kind].joined ?? []).map((column) => column.key)];
}

export type Presets = Readonly<Record<string, readonly string[]>>;

/** What marks a preset in `--fields`: no field name begins with it. */
const PRESET_SIGN = '@';

/** `@export` and the like replaced by their names, in place (a name given twice kept once); exit 2 for an unknown one. */
export function expandPresets(
  fields: readonly string[],
  presets: Presets | undefined,
  options: { nothingSent: boolean },
): string[] {
  const sent = options.nothingSent ? '; nothing was sent' : '';
  const expanded = fields.flatMap((field) => {
    if (!field.startsWith(PRESET_SIGN)) return [field];
    const name = field.slice(PRESET_SIGN.length);
    if (presets && Object.hasOwn(presets, name)) return presets[name] ?? [];
    const given = `"${escapeControl(field)}"`;
    throw new UsageError(
      presets === undefined
        ? `--fields: ${given} names a preset, and this command has none${sent}. Name its fields instead.`
        : `--fields: unknown preset ${given}${sent}. Presets: ${presetList(presets)}.`,
    );
  });
  return [...new Set(expanded)];
}

function presetList(presets: Presets): string {
  return Object.keys(presets)
    .map((name) => `${PRESET_SIGN}${name}`)
    .join(', ');
}

/** Exit 2 naming the valid names (and presets) when a field is not one of them. */
export function checkFields(
  fields: readonly string[],
  valid: readonly string[],
  options: { nothingSent: boolean; presets?: Presets | undefined },
): void {
  const unknown = fields.filter((field) => !valid.includes(field));
  if (unknown.length === 0) return;
  const shown = (names: readonly string[]) => names.map((name) => `"${escapeControl(name)}"`).join(', ');
  const presets = options.presets ? `; presets: ${presetList(options.presets)}` : '';
  throw new UsageError(
    `--fields: unknown field${unknown.length > 1 ? 's' : ''} ${shown(unknown)}${options.nothingSent ? '; nothing was sent' : ''}.`,
    valid.length === 0
      ? "This command's reply has no fields: leave out --fields."
      : `Valid fields: ${valid.map(escapeControl).join(', ')}${presets}.`,
  );
}

/**
 * A command's flags for the body fields of an operation, derived from the contract's field table
 * (src/contract/fields.ts), with the typed options commander hands the command's run function
 * and the body they make. Renaming a flag in the table renames the option, its type and the body
 * key it fills together: a run function cannot read a flag that no longer exists.
 */
import type { Command } from 'commander';
import {
  BODY_FIELDS,
  type BodyKey,
  type FieldDef,
  type FieldKind,
  type FieldsOf,
  fieldHelp,
  flagName,
  flagOf,
  optionKeyOf,
} from '../../contract/fields.js';
import type { FieldSpec } from '../../input/body.js';
import { parserOf } from '../../input/field-parsers.js';

type Dashed<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}-${Dashed<Tail>}` : S;
type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
/** The flag of a field without dashes, as ./fields.ts `flagName` computes it. */
type FlagName<F> = F extends { flag: infer Flag extends string }
  ? Flag
  : F extends { name: infer Name extends string }
    ? Dashed<Name>
    : never;

/** The options commander gives for the fields of operation K: `{ accountName?: string; … }`. */
export type FieldOptions<K extends BodyKey> = {
  [F in FieldsOf<K>[number] as F extends { noFlag: true } ? never : Camel<FlagName<F>>]?: F extends { kind: 'bool' }
    ? boolean
    : string;
};

/** Fields of an operation by name, for commands that take only some of them as flags. */
export type FieldName<K extends BodyKey> = FieldsOf<K>[number]['name'];

/** The key commander keeps a field's flag under (`accountName`). */
function optionKey(field: FieldDef): string {
  return optionKeyOf(flagName(field));
}

/** The name of a flag's value in `--help` when the table gives none. */
const VALUE_NAMES: Record<FieldKind, string> = {
  text: 'text',
  'contact-phone': 'phone',
  secret: 'text',
  email: 'email',
  phone: 'phone',
  url: 'url',
  date: 'date',
  money: 'n',
  rate: 'n',
  count: 'n',
  whole: 'n',
  'whole-text': 'n',
  'org-id': 'id',
  bool: '',
  'tenured-in': 'unit',
  'rate-type': 'type',
  frequency: 'f',
};

function selected<K extends BodyKey>(key: K, only?: readonly FieldName<K>[]): readonly FieldDef[] {
  const fields: readonly FieldDef[] = BODY_FIELDS[key];
  const names: readonly string[] | undefined = only;
  return fields.filter((field) => !field.noFlag && (names === undefined || names.includes(field.name)));
}

/** The value's name in `--help` (`<name>`): the field's own, else its kind's. */
export function valueName(field: FieldDef): string {
  return field.value ?? VALUE_NAMES[field.kind];
}

/** Adds a flag for each body field of operation `key` (or of the ones named in `only`). */
export function addFieldOptions<K extends BodyKey>(command: Command, key: K, only?: readonly FieldName<K>[]): Command {
  for (const field of selected(key, only)) {
    const flag = `--${flagName(field)}`;
    if (field.kind !== 'bool') {
      command.option(`${flag} <${valueName(field)}>`, fieldHelp(field));
      continue;
    }
    command.option(flag, fieldHelp(field));
    if (field.noHelp) command.option(`--no-${flagName(field)}`, field.noHelp);
  }
  return command;
}

/** The fields' values as the operator passed them, with the parser of each, for src/input/body.ts. */
export function fieldInputs<K extends BodyKey>(
  key: K,
  options: FieldOptions<K>,
  only?: readonly FieldName<K>[],
): FieldSpec[] {
  const values: Partial<Record<string, string | boolean>> = options;
  return selected(key, only).map((field) => ({
    key: field.name,
    flag: flagOf(field),
    value: values[optionKey(field)],
    parse: parserOf(field),
  }));
}

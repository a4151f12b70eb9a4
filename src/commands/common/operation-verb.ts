/**
 * A verb that wraps one operation of the contract, made from its row: the path parameters become
 * arguments (`<id>`), `productId` becomes `--product`, the query parameters that are not fixed
 * become flags, the body fields their flags (./field-options.ts) and `--data`; the description is
 * the row's summary and the example is written from the same parts. Its run (./operation-run.ts)
 * sends the operation and prints its reply as the row's `reply` says.
 *
 * Two ways to use it:
 * - a row that names a `verb` (`verb: 'loan decline'`) gets its command with no code at all:
 *   `addRowVerbs(noun, deps)` in the noun's index.ts adds every such verb of that noun;
 * - a verb that says more (its own description, examples, a notice) is one entry of the noun's
 *   list of verbs in its index.ts, `rowVerb(name, key, { … })`, as `loan add-bank` is.
 * A verb that does more than one operation gets its own file (./verb.ts says how it is written).
 */
import type { Command } from 'commander';
import { BODY_FIELDS, type FieldDef, flagName } from '../../contract/fields.js';
import { carriesBody, OPERATIONS, type OperationDef, type OperationKey, operation } from '../../contract/operations.js';
import type { Deps } from '../../deps.js';
import { addFieldOptions, valueName } from './field-options.js';
import { DATA_HELP, examples, PATH_PARAM_HELP, PRODUCT_HELP } from './help.js';
import type { VerbExtras } from './operation-run.js';
import type { Verb } from './verb.js';

export interface OperationVerbSpec extends VerbExtras {
  /** Default: the row's summary. */
  description?: string;
  /** Default: one written from the row (its path parameters and required flags). */
  examples?: readonly string[];
}

/** A path parameter's argument name: `user_id` → `<user-id>`. */
function argumentName(param: string): string {
  return param.replaceAll('_', '-');
}

/** Adds `name` to `noun`: the verb of operation `key` (see the top of this file). */
export function operationVerb(
  noun: Command,
  name: string,
  key: OperationKey,
  deps: Deps,
  spec: OperationVerbSpec = {},
): Command {
  const row = operation(key) as OperationDef;
  const command = noun.command(name).description(spec.description ?? row.summary);
  for (const param of row.pathParams) command.argument(`<${argumentName(param)}>`, PATH_PARAM_HELP[param] ?? param);
  if (row.productId) command.option('--product <id>', PRODUCT_HELP);
  for (const [param, description] of Object.entries(row.query)) {
    if (description.type !== 'literal') command.option(`--${param} <${description.type}>`, `the ${param} to send`);
  }
  if (carriesBody(key)) addFieldOptions(command, key).option('--data <json>', DATA_HELP);
  command.addHelpText('after', examples(...(spec.examples ?? [example(row, [noun.name(), name])])));
  command.action(async (...args: unknown[]) => {
    const values = args.slice(0, row.pathParams.length) as string[];
    const options = args[row.pathParams.length] as Record<string, string | boolean | undefined>;
    const { runOperation } = await import('./operation-run.js');
    await runOperation(key, { values, options }, deps, spec);
  });
  return command;
}

/** The verb of operation `key`, for a noun's list of verbs (see the top of this file). */
export function rowVerb(name: string, key: OperationKey, spec: OperationVerbSpec = {}): Verb {
  return (noun, deps) => {
    operationVerb(noun, name, key, deps, spec);
  };
}

/** Adds the verbs of `noun` that the contract's rows name (`verb: 'loan decline'`), in the table's order. */
export const addRowVerbs: Verb = (noun, deps) => {
  for (const row of OPERATIONS as readonly OperationDef[]) {
    const [rowNoun, name] = row.verb?.split(' ') ?? [];
    if (rowNoun === noun.name() && name !== undefined) operationVerb(noun, name, row.key as OperationKey, deps);
  }
};

const EXAMPLE_VALUES: Readonly<Record<string, string>> = { id: '172', user_id: '12' };

/** `loanctl loan decline 172 --reason <text>`: the path parameters and the required flags. */
function example(row: OperationDef, words: readonly string[]): string {
  const fields: readonly FieldDef[] = carriesBody(row.key) ? BODY_FIELDS[row.key] : [];
  const flags = fields
    .filter((field) => field.required && !field.noFlag)
    .map((field) => (field.kind === 'bool' ? `--${flagName(field)}` : `--${flagName(field)} <${valueName(field)}>`));
  const values = row.pathParams.map((param) => EXAMPLE_VALUES[param] ?? `<${argumentName(param)}>`);
  return ['loanctl', ...words, ...values, ...flags].join(' ');
}

/**
 * The completion model: what a shell may offer at each point of a loanctl command line, read from
 * the same commander tree that parses it (program.ts), so completion cannot drift from the CLI.
 *
 * Commands, aliases, options and arguments come from commander's own Help (exactly what `--help`
 * lists; hidden commands and options stay hidden). Values come from, in order:
 *   1. commander's `.choices()` on an option or argument;
 *   2. VALUE_HINTS below, for flags whose values are fixed but parsed by the input module (so that
 *      `weekly` and the API's `weekely` both work) instead of commander;
 *   3. the value name: `<dir>` completes directories, `<file>` and `<path>`-like names files.
 * Profile names, snapshot names and fault ids are the dynamic sets (DYNAMIC_SETS): the scripts
 * read them at completion time by running `loanctl __complete profiles` (…), so a profile added a
 * second ago completes; snapshots and faults of the data dir the line names (`--data-dir`).
 *
 * Options of the root (`--profile`, `-o`…) are accepted before or after a subcommand (commander's
 * default), so they are offered at every level; `--version` only at the root.
 */
import type { Argument, Command, Option } from 'commander';
import { OUTPUT_FORMATS } from '../basics.js';
import { BULK_FORMATS } from '../bulk/source.js';
import { BODY_FIELDS, FIELD_CHOICES, type FieldDef, flagName } from '../contract/fields.js';
import { API_METHODS } from '../contract/operations.js';
import { STAGE_CHOICES } from '../contract/states.js';
import { DIRECTIONS } from '../input/values.js';

/**
 * The sets a script reads at completion time from `loanctl __complete SET [--data-dir=DIR]`, one
 * candidate a line (a tab, then a description, where it has one): commands/completion/run.ts.
 */
export const DYNAMIC_SETS = ['profiles', 'snapshots', 'faults'] as const;
export type DynamicSet = (typeof DYNAMIC_SETS)[number];

/** The flag whose value on the command line says which data dir's snapshots and faults complete. */
export const DATA_DIR_FLAG = '--data-dir';

/** What a value may be completed with. */
export type Values =
  | { kind: 'none' }
  | { kind: 'choices'; choices: readonly string[] }
  | { kind: DynamicSet }
  | { kind: 'files' }
  | { kind: 'directories' };

export interface OptionSpec {
  /** `--output`, when the option has a long name. */
  long?: string;
  /** `-o`, when it has a short one. */
  short?: string;
  description: string;
  /** Whether a value follows the flag (`--output json`); false for switches. */
  takesValue: boolean;
  /** The value's name as the help shows it (`format`), for shells that show it. */
  valueName?: string;
  values: Values;
}

export interface ArgumentSpec {
  name: string;
  description: string;
  /** `<name>`; false for `[name]`, which may be left out. */
  required: boolean;
  variadic: boolean;
  values: Values;
}

export interface CommandSpec {
  /** Names from the root, e.g. `['loan', 'approve']`; `[]` for the root. */
  path: string[];
  name: string;
  aliases: string[];
  description: string;
  /** Options of this command itself (with `-h, --help`), not the global ones. */
  options: OptionSpec[];
  arguments: ArgumentSpec[];
  commands: CommandSpec[];
  /** Whether the command itself runs (a leaf, or a group with an action: `sandbox snapshot [name]`). */
  runs: boolean;
}

export interface CompletionSpec {
  /** The program's name, e.g. `loanctl`. */
  program: string;
  /**
   * The words that run this loanctl for the dynamic values (`… __complete profiles`): the absolute
   * paths of the Node and the script that printed the completion script, so completion works
   * without `loanctl` on PATH (commands/completion/run.ts); the program's name for the checked-in scripts.
   */
  invoke: readonly string[];
  root: CommandSpec;
  /** Root options accepted at every level (all of the root's but help and version). */
  globalOptions: OptionSpec[];
}

const NONE: Values = { kind: 'none' };
const choices = (list: readonly string[]): Values => ({ kind: 'choices', choices: list });

/**
 * Fixed values of flags that the input module parses (case-insensitive, with aliases), keyed by
 * long flag. Only the spellings an operator should type are offered (`weekly`, not `weekely`).
 */
export const VALUE_HINTS: Readonly<Record<string, Values>> = {
  '--profile': { kind: 'profiles' },
  '--output': choices(OUTPUT_FORMATS),
  ...fieldChoices(),
  '--direction': choices(DIRECTIONS),
  // The bulk file's format (`user create` / `loan create --from`): parsed by src/bulk, which also
  // takes `jsonl` and any case, so commander's `.choices()` would refuse what works.
  '--format': choices(BULK_FORMATS),
  // The stages of the state table (`loan list --stage`, `loan find --stage`, `loan wait --until`).
  '--stage': choices(STAGE_CHOICES),
  '--until': choices(STAGE_CHOICES),
};

/** `--tenured-in months|days|weeks`…: the fixed values of every body field of the contract that has them. */
function fieldChoices(): Record<string, Values> {
  const hints: Record<string, Values> = {};
  for (const fields of Object.values(BODY_FIELDS) as (readonly FieldDef[])[]) {
    for (const field of fields) {
      const values = FIELD_CHOICES[field.kind];
      if (values && !field.noFlag) hints[`--${flagName(field)}`] = choices(values);
    }
  }
  return hints;
}

/** Values of positional arguments, keyed by `command path <argument>`. */
export const ARGUMENT_HINTS: Readonly<Record<string, Values>> = {
  'profile use <name>': { kind: 'profiles' },
  'profile show <name>': { kind: 'profiles' },
  'profile remove <name>': { kind: 'profiles' },
  'sandbox restore <name>': { kind: 'snapshots' },
  'sandbox faults clear <id>': { kind: 'faults' },
  'api <method>': choices(API_METHODS),
  // An API path (/api/v1/…), not a file: its name would otherwise complete local files.
  'api <path>': NONE,
};

/** Reads the completion model from a commander tree (the root from `buildProgram`). */
export function completionSpec(program: Command, invoke: readonly string[] = [program.name()]): CompletionSpec {
  const root = commandSpec(program, []);
  const globalOptions = root.options.filter((option) => option.long !== '--help' && option.long !== '--version');
  return { program: program.name(), invoke, root, globalOptions };
}

function commandSpec(command: Command, path: string[]): CommandSpec {
  const help = command.createHelp();
  const subcommands = help.visibleCommands(command);
  const commands = subcommands.map((sub) =>
    isImplicitHelp(command, sub) ? helpCommandSpec(sub, path, subcommands) : commandSpec(sub, [...path, sub.name()]),
  );
  return {
    path,
    name: command.name(),
    aliases: command.aliases(),
    description: command.description(),
    options: help.visibleOptions(command).map(optionSpec),
    arguments: command.registeredArguments.map((argument) => argumentSpec(argument, path)),
    commands,
    runs: commands.length === 0 || hasAction(command),
  };
}

/**
 * Whether `.action()` was given to a command that also has subcommands. Commander keeps the
 * handler in a field its typings do not declare; read by name so that no cast is needed.
 */
function hasAction(command: Command): boolean {
  return Boolean(Reflect.get(command, '_actionHandler'));
}

/** Commander's own `help [command]`, which is not in `command.commands`: its argument is a sibling. */
function isImplicitHelp(parent: Command, sub: Command): boolean {
  return sub.name() === 'help' && !parent.commands.includes(sub);
}

function helpCommandSpec(help: Command, parentPath: string[], siblings: readonly Command[]): CommandSpec {
  const names = siblings.map((sibling) => sibling.name()).filter((name) => name !== 'help');
  return {
    path: [...parentPath, 'help'],
    name: 'help',
    aliases: [],
    description: help.description(),
    options: [],
    arguments: [
      {
        name: 'command',
        description: 'the command to explain',
        required: false,
        variadic: false,
        values: choices(names),
      },
    ],
    commands: [],
    runs: true,
  };
}

function optionSpec(option: Option): OptionSpec {
  const takesValue = option.required || option.optional;
  const valueName = takesValue ? /[<[]([^>\]]*)[>\]]/.exec(option.flags)?.[1] : undefined;
  let values: Values = NONE;
  if (takesValue) {
    if (option.argChoices && option.argChoices.length > 0) values = choices(option.argChoices);
    else if (option.long && VALUE_HINTS[option.long]) values = VALUE_HINTS[option.long] as Values;
    else values = valuesFromName(valueName);
  }
  const spec: OptionSpec = { description: option.description, takesValue, values };
  if (option.long) spec.long = option.long;
  if (option.short) spec.short = option.short;
  if (valueName) spec.valueName = valueName;
  return spec;
}

function argumentSpec(argument: Argument, path: string[]): ArgumentSpec {
  const key = `${path.join(' ')} <${argument.name()}>`;
  const values =
    argument.argChoices && argument.argChoices.length > 0
      ? choices(argument.argChoices)
      : (ARGUMENT_HINTS[key] ?? valuesFromName(argument.name()));
  return {
    name: argument.name(),
    description: argument.description,
    required: argument.required,
    variadic: argument.variadic,
    values,
  };
}

function valuesFromName(name: string | undefined): Values {
  if (!name) return NONE;
  if (/^(dir|directory|[\w-]*-dir)$/i.test(name)) return { kind: 'directories' };
  if (/^(file|path|[\w-]*-file)$/i.test(name)) return { kind: 'files' };
  return NONE;
}

// ---------------------------------------------------------------------------------------------
// Helpers the shell renderers share.

/** Every command of the tree, depth first, the root first. */
export function allCommands(spec: CompletionSpec): CommandSpec[] {
  const out: CommandSpec[] = [];
  const visit = (command: CommandSpec) => {
    out.push(command);
    for (const sub of command.commands) visit(sub);
  };
  visit(spec.root);
  return out;
}

/** The options offered at a command: its own, then the global ones it does not define itself. */
export function optionsAt(spec: CompletionSpec, command: CommandSpec): OptionSpec[] {
  if (command.path.length === 0) return command.options;
  const own = new Set(command.options.flatMap(flagsOf));
  return [...command.options, ...spec.globalOptions.filter((option) => !flagsOf(option).some((flag) => own.has(flag)))];
}

/** `['-o', '--output']`: the flags of an option, short first. */
export function flagsOf(option: OptionSpec): string[] {
  return [option.short, option.long].filter((flag): flag is string => flag !== undefined);
}

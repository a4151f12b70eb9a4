/**
 * The tables every completion script switches on, read from the completion model (spec.ts): the
 * three shells render the same tables, so they offer the same things.
 */
import {
  type ArgumentSpec,
  allCommands,
  type CommandSpec,
  type CompletionSpec,
  DYNAMIC_SETS,
  flagsOf,
  type OptionSpec,
  type Values,
} from './spec.js';

/** The command path as one string, `loan approve` (`''` for the root): the key the scripts switch on. */
function pathKey(command: CommandSpec): string {
  return command.path.join(' ');
}

/** The first line of a description, without a trailing full stop: what a completion menu shows. */
export function summary(text: string): string {
  const line = (text.split('\n')[0] ?? '').trim();
  return line.endsWith('.') && !line.endsWith('..') ? line.slice(0, -1) : line;
}

/** `@profiles`, `@snapshots`, `@faults`: the value words of the sets the scripts read from `__complete`. */
export function dynamicSetWords(): string[] {
  return DYNAMIC_SETS.map((set) => `@${set}`);
}

/** A Values as the scripts' value word: the choices joined by spaces, or `@kind`. */
function valuesWord(values: Values): string {
  switch (values.kind) {
    case 'choices':
      return values.choices.join(' ');
    case 'profiles':
    case 'snapshots':
    case 'faults':
      return `@${values.kind}`;
    case 'files':
      return '@files';
    case 'directories':
      return '@dirs';
    default:
      return '@none';
  }
}

/**
 * The tables every script switches on, keyed by command path (`loan approve`, `''` for the root).
 * The three shells render the same tables, so they offer the same things.
 */
export interface ScriptTables {
  /** Commands that have subcommands, with them. */
  subcommands: Array<{ path: string; commands: CommandSpec[] }>;
  /** Every command's own options (the root's include the global ones). */
  options: Array<{ path: string; options: OptionSpec[] }>;
  /** Options every level offers besides its own. */
  globalOptions: OptionSpec[];
  /** How each value-taking option is completed; path `*` for global options (after the others). */
  optionValues: Array<{ path: string; flags: string[]; word: string; option: OptionSpec }>;
  /** How positional arguments are completed; index `*` for a variadic's later positions. */
  argumentValues: Array<{ path: string; index: string; word: string; argument: ArgumentSpec }>;
}

export function scriptTables(spec: CompletionSpec): ScriptTables {
  const commands = allCommands(spec);
  const globals = new Set(spec.globalOptions);
  const tables: ScriptTables = {
    subcommands: [],
    options: [],
    globalOptions: spec.globalOptions,
    optionValues: [],
    argumentValues: [],
  };
  for (const command of commands) {
    const path = pathKey(command);
    if (command.commands.length > 0) tables.subcommands.push({ path, commands: command.commands });
    if (command.options.length > 0) tables.options.push({ path, options: command.options });
    for (const option of command.options) {
      if (option.takesValue && !globals.has(option)) {
        tables.optionValues.push({ path, flags: flagsOf(option), word: valuesWord(option.values), option });
      }
    }
    if (command.arguments.some((argument) => argument.values.kind !== 'none')) {
      command.arguments.forEach((argument, index) => {
        const word = valuesWord(argument.values);
        tables.argumentValues.push({ path, index: String(index), word, argument });
        if (argument.variadic) tables.argumentValues.push({ path, index: '*', word, argument });
      });
    }
  }
  for (const option of spec.globalOptions) {
    if (option.takesValue) {
      tables.optionValues.push({ path: '*', flags: flagsOf(option), word: valuesWord(option.values), option });
    }
  }
  return tables;
}

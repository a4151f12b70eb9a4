/**
 * What the sandbox's verbs share, for their `-verb.ts` files and the noun's index.ts: the flags
 * `--data-dir` and `--yes`, and `--json`, kept from before they printed through `-o` as another
 * way to say `-o json` (docs/guide.md#output-formats), so the scripts that pass it keep working; beside another
 * `-o` it is a usage error rather than a guess. The command tree loads this file: what only their
 * runs share is ./run-helpers.ts.
 */
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { DATA_DIR_HELP, examples } from '../common/help.js';

export { DATA_DIR_HELP, DEFAULT_DATA_DIR } from '../common/help.js';

export const JSON_ALIAS_HELP = 'the same as -o json';

/** `--yes` on the verbs that ask first (reset, restore). */
export const YES_HELP = 'do it without asking (needed where there is no terminal to ask on)';

/** A verb that works on a data dir: its description, `--data-dir` and its examples. */
export function dataDirVerb(noun: Command, name: string, description: string, ...lines: string[]): Command {
  return noun
    .command(name)
    .description(description)
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .addHelpText('after', examples(...lines));
}

/** A data-dir verb that printed JSON with `--json` before it printed through `-o`. */
export function controlVerb(noun: Command, name: string, description: string, ...lines: string[]): Command {
  return dataDirVerb(noun, name, description, ...lines).option('--json', JSON_ALIAS_HELP);
}

/** A preAction hook (on `sandbox`) that turns the verb's `--json` into `-o json`. */
export function jsonAlias(deps: Deps) {
  return (_sandbox: Command, action: Command): void => {
    if (action.optsWithGlobals().json !== true) return;
    const given = deps.globals?.output;
    if (given !== undefined && given !== 'json') {
      throw new UsageError(`--json is -o json; it cannot go with -o ${given}.`, 'Give only one of them.');
    }
    deps.globals = { ...deps.globals, output: 'json' };
  };
}

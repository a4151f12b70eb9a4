/**
 * `--json` on the sandbox's verbs, from before they printed through `-o`: kept as another way to
 * say `-o json` (README "Output"), so the scripts that pass it keep working. Beside another `-o`
 * it is a usage error rather than a guess.
 */
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';

export const JSON_ALIAS_HELP = 'the same as -o json';

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

/**
 * How a hand-written verb is written: one file, `<noun>/<verb>-verb.ts`, exports a `Verb` that adds
 * the command to its noun — arguments, flags, description, help, examples — and whose action
 * imports the verb's run (`<noun>/<verb>.ts`) only when the command runs. The noun's `index.ts`
 * only lists its verbs, in the order the help shows them.
 *
 * The run is a file of its own because every start builds the root and the noun it runs (for help
 * and suggestions), and completion builds the whole tree: its flags must load nothing more than
 * commander and the contract's tables, while a run loads the HTTP client, the output and zod (the rule
 * `the-command-tree-loads-no-run` of .dependency-cruiser.cjs, docs/architecture.md "Layers").
 * A verb that wraps one operation needs no file at all (./operation-verb.ts).
 */
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { examples, PRODUCT_HELP } from './help.js';

/** Adds one verb to its noun (see the top of this file). */
export type Verb = (noun: Command, deps: Deps) => void;

/** A verb of a loan product: its description, `--product`, and its examples. */
export function productVerb(noun: Command, name: string, description: string, ...lines: string[]): Command {
  return noun
    .command(name)
    .description(description)
    .option('--product <id>', PRODUCT_HELP)
    .addHelpText('after', examples(...lines));
}

/**
 * A noun inside a noun (`sandbox faults`): its description and examples, then its verbs, each
 * written as this file says. Like a noun's `index.ts`, it only lists them.
 */
export function subNoun(name: string, description: string, example: string, verbs: readonly Verb[]): Verb {
  return (noun, deps) => {
    const sub = noun.command(name).description(description).addHelpText('after', examples(example));
    for (const add of verbs) add(sub, deps);
  };
}

/** Commander's parser of a repeatable flag (`--query a=1 --query b=2`): every value, in order. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

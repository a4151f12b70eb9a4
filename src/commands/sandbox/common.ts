/**
 * What the sandbox's verbs share, for their `-verb.ts` files and the noun's index.ts: the flags
 * `--data-dir` and `--yes`, and `--json`, kept from before they printed through `-o` as another
 * way to say `-o json` (docs/guide.md#output-formats), so the scripts that pass it keep working; beside another
 * `-o` it is a usage error rather than a guess. And the small helpers their runs share: the data
 * dir, whole-number flags, the clock's print. Loads nothing heavy: the output is imported when the
 * clock is printed, so the command tree stays free of it (and of Fastify and node:sqlite).
 */
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { formatDuration } from '../../input/duration.js';
import { dataDirFrom } from '../../sandbox/paths.js';
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

export function resolveDataDir(dataDir: string | undefined, deps: Deps): string {
  if (dataDir !== undefined && dataDir.trim() === '') throw new UsageError('--data-dir must not be empty.');
  return dataDirFrom(dataDir, deps.env);
}

/** A whole number in [min, max] given as text, else a usage error naming the flag. */
export function parseWholeNumber(value: string, flag: string, min: number, max: number): number {
  const number = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}; got "${value}".`);
  }
  return number;
}

/** The sandbox's clock as `sandbox clock …` prints it: {now, offset_ms}, or a sentence on a table. */
export async function printClock(state: { now: Date; offset_ms: number }, deps: Deps): Promise<void> {
  const now = state.now.toISOString();
  const from =
    state.offset_ms === 0
      ? 'real time'
      : `real time ${state.offset_ms > 0 ? '+' : '-'} ${formatDuration(Math.abs(state.offset_ms))}`;
  const { openOutcome } = await import('../../output/render.js');
  const output = await openOutcome(deps, ['now', 'offset_ms']);
  await output.print({ now, offset_ms: state.offset_ms }, [`Sandbox time: ${now} (${from})`]);
}

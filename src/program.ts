/**
 * Builds the commander tree. The root holds the global options and every command's name and
 * one-line description; a noun's verbs are added only when commander dispatches to that noun
 * (docs/decisions/lazy-nouns.md), and a verb's action imports the file that does the work only
 * when it runs. So a run builds the one noun it runs, and `addEveryVerb` builds the whole tree
 * for what walks it (shell completion, the reference docs).
 *
 * Global options live on the root and are accepted before or after the subcommand; a preAction
 * hook copies them into `deps.globals`, where settings, the client and the renderers read them.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { distance } from 'fastest-levenshtein';
import { type GlobalOptions, OUTPUT_FORMATS, type OutputFormat } from './basics.js';
import { registerApiCommand } from './commands/api/index.js';
import { registerCompletionCommand } from './commands/completion/index.js';
import { registerDemoCommand } from './commands/demo/index.js';
import { registerStatusCommand } from './commands/status/index.js';
import type { Deps } from './deps.js';
import { quietIo } from './quiet-io.js';
import { versionLine } from './version.js';

/** Commander's error class, for src/main.ts, which reaches commander only through this module. */
export { CommanderError } from 'commander';

/** The commander tree: every command, with the global options on the root. */
export function buildProgram(deps: Deps): Command {
  const program = new Command('loanctl')
    .description('Run the loan origination flow of a Lending Origination API from your terminal.')
    .version(versionLine(), '-v, --version', 'print the version')
    .option('--profile <name>', 'use this profile instead of the current one (env LOANCTL_PROFILE)')
    .option('--base-url <url>', 'API root, e.g. https://api.example.com (env LOANCTL_BASE_URL)')
    .addOption(
      new Option('-o, --output <format>', 'output format, any case (default: table on a terminal, json otherwise)')
        .choices(OUTPUT_FORMATS)
        .argParser(outputFormat),
    )
    .option(
      '--fields <list>',
      'comma-separated fields to show, e.g. id,status,amount; @NAME is a preset (loan list: @export)',
    )
    .option('--jq <expr>', "filter the JSON output with jq's language, strings printed raw, e.g. '.[].id'")
    .option('--bom', "with -o csv: begin with the byte-order mark Excel needs to read UTF-8 (or the profile's csvBom)")
    .option('--no-bom', 'with -o csv: no byte-order mark, even if the profile asks for one')
    .option('--raw', 'print the whole API envelope exactly as received')
    .option('--no-color', 'no colour (also NO_COLOR=1)')
    .option('--no-input', 'never prompt; a missing value is an error naming its flag')
    .option('--timeout <duration>', 'give up on a request after this long: 30, 30s, 2m', '30')
    .option('--dry-run', 'print each request as a curl command (key redacted) and send nothing')
    .option('--debug', 'log each request and response to stderr (API key redacted)')
    .option('--quiet', 'no hints, notices, progress or warnings on stderr; errors still print')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => deps.io.stdout.write(text),
      writeErr: (text) => deps.io.stderr.write(text),
    })
    .addHelpText(
      'after',
      `
Examples:
  $ loanctl demo                      # see the whole flow against a local sandbox, in a second
  $ loanctl loan new                  # create a loan request step by step
  $ loanctl profile add prod --base-url https://api.example.com --product-id 12
  $ loanctl loan list --limit 20
  $ loanctl loan show 172 -o json
  $ loanctl loan list --all --jq 'select(.amount > 100000) | .id'
  $ loanctl api GET /api/v1/loan_request --query product-id=12 --query direction=DESC

Exit codes: 0 ok, 1 API error, 2 usage, 3 auth, 4 no access / not found, 5 network, 124 loan wait timed out, 130 cancelled.
Environment: LOANCTL_PROFILE, LOANCTL_BASE_URL, LOANCTL_API_KEY, LOANCTL_PRODUCT_ID, LOANCTL_CONFIG_DIR,
LOANCTL_DEBUG=1, NO_COLOR, FORCE_COLOR, CI (set: never prompt).`,
    )
    .hook('preAction', () => {
      // The root's own options, not optsWithGlobals(): there a verb's flag of the same name (sandbox
      // start's --no-profile) would stand for the global (--profile NAME).
      deps.globals = globalOptions(program.opts());
      if (deps.globals.quiet) deps.io = quietIo(deps.io);
      // Libraries that colour on their own (inquirer's prompts, Node) read NO_COLOR once, when
      // they load: say --no-color in the environment before any of them is imported.
      if (deps.globals.color === false) {
        deps.env.NO_COLOR = '1';
        delete deps.env.FORCE_COLOR;
      }
    });

  registerDemoCommand(program, deps);
  registerStatusCommand(program, deps);
  addNoun(program, 'profile', () => import('./commands/profile/index.js'));
  registerApiCommand(program, deps);
  addNoun(program, 'sandbox', () => import('./commands/sandbox/index.js'));
  addNoun(program, 'user', () => import('./commands/user/index.js'));
  addNoun(program, 'loan', () => import('./commands/loan/index.js'));
  addNoun(program, 'cache', () => import('./commands/cache/index.js'));
  registerCompletionCommand(program, deps);
  oneLineUsageErrors(program, ['loanctl']);
  // Commander awaits this before it parses the rest of the line with the noun it matched.
  program.hook('preSubcommand', (_root, command) => addVerbsOf(command, deps));
  return program;
}

/** The one line each noun shows in the root's help, which needs none of its verbs. */
const NOUN_DESCRIPTIONS = {
  profile: 'Manage profiles: the API base URL, API key and default product id to use',
  sandbox: 'Run a local sandbox of the whole Lending Origination API',
  user: 'Create borrower users, check whether one exists, list them',
  loan: 'Create loan requests, attach information, submit, approve and read them',
  cache: 'Clear the local index of borrowers found by e-mail',
} as const;

/** A noun's index.ts: it adds the noun's verbs, flags, help and hooks to the noun's command. */
interface NounModule {
  addVerbs(noun: Command, deps: Deps): void;
}

/** The nouns whose verbs are not added yet, with the import that adds them. */
const nounsToBuild = new WeakMap<Command, () => Promise<NounModule>>();

function addNoun(program: Command, name: keyof typeof NOUN_DESCRIPTIONS, load: () => Promise<NounModule>): void {
  nounsToBuild.set(program.command(name).description(NOUN_DESCRIPTIONS[name]), load);
}

async function addVerbsOf(noun: Command, deps: Deps): Promise<void> {
  const load = nounsToBuild.get(noun);
  if (load === undefined) return;
  nounsToBuild.delete(noun);
  (await load()).addVerbs(noun, deps);
  oneLineUsageErrors(noun, ['loanctl', noun.name()]);
}

/** The whole tree, every noun's verbs added: for what walks it (shell completion, the reference docs). */
export async function addEveryVerb(program: Command, deps: Deps): Promise<Command> {
  for (const command of program.commands) await addVerbsOf(command, deps);
  return program;
}

/** `buildProgram` with every noun's verbs added. */
export async function buildWholeProgram(deps: Deps): Promise<Command> {
  return addEveryVerb(buildProgram(deps), deps);
}

/**
 * Commander reports a usage error over several lines (`error: …`, `(Did you mean …?)`); the
 * contract is one line on stderr saying what is wrong and what to do. Each command gets its own
 * writer so the line can name that command's help, e.g. `See 'loanctl loan create --help'.`
 */
function oneLineUsageErrors(command: Command, path: string[]): void {
  command.configureOutput({
    outputError: (text, write) => write(`loanctl: ${usageLine(text)} See '${path.join(' ')} --help'.\n`),
  });
  if (command.commands.length > 0) command.on('command:*', (operands: string[]) => unknownCommand(command, operands));
  for (const sub of command.commands) oneLineUsageErrors(sub, [...path, sub.name()]);
}

/**
 * An unknown subcommand (commander's own hook for suggesting one), said as commander says it, but
 * suggesting first the commands the typed word begins: `sandbox stat` meant status, not start, the
 * closer one by edit distance. Else the closest by edit distance, as commander does.
 */
function unknownCommand(command: Command, operands: string[]): never {
  const typed = operands[0] ?? '';
  const names = command
    .createHelp()
    .visibleCommands(command)
    .flatMap((sub) => [sub.name(), ...sub.aliases()]);
  const prefixed = typed.length >= 2 ? names.filter((name) => name.startsWith(typed)) : [];
  const suggested = prefixed.length > 0 ? prefixed : closestNames(typed, names);
  const suggestion = suggested.length > 0 ? `\n(Did you mean ${suggested.join(', ')}?)` : '';
  command.error(`error: unknown command '${typed}'${suggestion}`, { code: 'commander.unknownCommand' });
}

/** The names at the least edit distance from `typed`, if they are alike enough (commander's 0.4). */
function closestNames(typed: string, names: string[]): string[] {
  const alike = names
    .map((name) => ({ name, apart: distance(typed, name) }))
    .filter(
      ({ name, apart }) => (Math.max(typed.length, name.length) - apart) / Math.max(typed.length, name.length) > 0.4,
    );
  const least = Math.min(...alike.map(({ apart }) => apart));
  return alike.filter(({ apart }) => apart === least).map(({ name }) => name);
}

/** `error: unknown option '--amout'\n(Did you mean --amount?)` → `Unknown option '--amout'. Did you mean --amount?` */
export function usageLine(text: string): string {
  const line = text
    .trim()
    .replace(/^error:\s*/, '')
    .replace(/\s*\n\s*\(Did you mean (?:one of )?([^)?]*)\?\)/, (_all, names: string) => safeSuggestion(names))
    .replace(/\s*\n\s*/g, ' ');
  const sentence = line.charAt(0).toUpperCase() + line.slice(1);
  return /[.?!]$/.test(sentence) ? sentence : `${sentence}.`;
}

/**
 * Verbs that destroy something: never offered as a correction (`loanctl loan decline` must not
 * answer "Did you mean delete?", one Enter away from deleting a loan request).
 */
const DESTRUCTIVE = new Set(['delete', 'remove', 'rm', 'clear', 'reset', 'destroy', 'purge', 'drop']);

/** `delete, list` (commander's suggestions) → `. Did you mean list?`, or '' when only destructive ones remain. */
function safeSuggestion(names: string): string {
  const safe = names
    .split(/,\s*/)
    .map((name) => name.trim())
    .filter((name) => name !== '' && !DESTRUCTIVE.has(name.replace(/^-+/, '')));
  if (safe.length === 0) return '';
  return safe.length === 1 ? `. Did you mean ${safe[0]}?` : `. Did you mean one of ${safe.join(', ')}?`;
}

/** `-o JSON` is `-o json`: the format's name in any case. */
function outputFormat(value: string): OutputFormat {
  const format = value.toLowerCase() as OutputFormat;
  if (!OUTPUT_FORMATS.includes(format)) {
    throw new InvalidArgumentError(`Allowed choices are ${OUTPUT_FORMATS.join(', ')}.`);
  }
  return format;
}

const GLOBAL_KEYS = [
  'profile',
  'baseUrl',
  'output',
  'fields',
  'jq',
  'bom',
  'raw',
  'color',
  'input',
  'debug',
  'dryRun',
  'timeout',
  'quiet',
] as const satisfies readonly (keyof GlobalOptions)[];

function globalOptions(all: Record<string, unknown>): GlobalOptions {
  const globals: Record<string, unknown> = {};
  for (const key of GLOBAL_KEYS) if (all[key] !== undefined) globals[key] = all[key];
  return globals as GlobalOptions;
}

/**
 * main(argv, deps) → exit code. The one place where errors become exit codes and lines on stderr
 * (docs/guide.md#exit-codes): a typed LoanctlError carries its own code; commander's parse
 * errors are usage errors (2); anything else is a bug, reported in one line (stack with --debug).
 */
import type { Command } from 'commander';
import type { OutputStream } from './basics.js';
import { type Deps, productionDeps } from './deps.js';
import { DryRunComplete, ExitCode, formatError, LoanctlError, localFileError } from './errors.js';
import { buildProgram, CommanderError, usageLine } from './program.js';

/** Commander's codes for runs that ended well: help or version was asked for. */
const COMMANDER_SUCCESS = new Set(['commander.helpDisplayed', 'commander.version']);

/**
 * Help shown because it was asked for is success; help shown because a subcommand is missing
 * (`loanctl loan`) is a usage error. Commander gives both the code `commander.help` and tells them
 * apart only by its own exit code (1 for the second).
 */
function isRequestedHelp(error: CommanderError): boolean {
  return COMMANDER_SUCCESS.has(error.code) || (error.code === 'commander.help' && error.exitCode === 0);
}

export async function main(argv: string[], deps: Deps = productionDeps()): Promise<number> {
  const debug = argv.includes('--debug') || deps.env.LOANCTL_DEBUG === '1';
  const program = buildProgram(deps);
  // Errors go here even under --quiet, which swaps deps.io.stderr for a sink once options are read.
  const errors = deps.io.stderr;
  let code: number = ExitCode.ok;
  try {
    await program.parseAsync(helpOfSubcommand(argv, program), { from: 'user' });
  } catch (error) {
    const failure = reportError(error, deps, errors, debug);
    code = failure.exit;
    const message = error instanceof CommanderError ? usageLine(error.message) : failure.message;
    if (code !== ExitCode.ok && isJsonOutput(argv, deps)) writeJsonError(errors, code, message);
  }
  // Close the keep-alive pool, or its idle sockets would hold the process open for seconds. After
  // Ctrl-C (130) a request may still be out: drop it, or the exit would wait for its reply or its
  // timeout (up to --timeout) after the summary is already on screen.
  await deps.dispose({ abort: code === ExitCode.cancelled });
  return code;
}

/**
 * `loanctl help loan approve` → `loanctl loan approve --help`: commander's own help command reads
 * only its first word (it showed the help of `loan`), and it prints a noun's help without
 * dispatching to the noun, which is when the noun's verbs are added (src/program.ts). `loanctl
 * help lon` → `loanctl lon`: an unknown command, said as one, with its suggestion (exit 2).
 */
function helpOfSubcommand(argv: string[], program: Command): string[] {
  const [first, command, ...rest] = argv;
  if (first !== 'help' || command === undefined) return argv;
  const known = program.commands.some((sub) => sub.name() === command || sub.aliases().includes(command));
  return known ? [command, ...rest, '--help'] : [command, ...rest];
}

/** The run asked for `-o json` or `-o ndjson` (read from argv too: a usage error comes before the options are parsed). */
function isJsonOutput(argv: string[], deps: Deps): boolean {
  let format = deps.globals.output as string | undefined;
  for (let i = 0; format === undefined && i < argv.length; i++) {
    const word = argv[i] ?? '';
    if (word === '--') break;
    if (word === '-o' || word === '--output') format = argv[i + 1];
    else if (word.startsWith('--output=')) format = word.slice('--output='.length);
    else if (/^-o[^-]/.test(word)) format = word.slice(2);
  }
  const lower = format?.toLowerCase();
  return lower === 'json' || lower === 'ndjson';
}

/** Scripts tell failures apart by `code`: one word per exit code (docs/guide.md#exit-codes). */
const ERROR_CODES: Record<number, string> = {
  [ExitCode.api]: 'api',
  [ExitCode.usage]: 'usage',
  [ExitCode.auth]: 'auth',
  [ExitCode.noAccess]: 'no-access',
  [ExitCode.network]: 'network',
  [ExitCode.cancelled]: 'cancelled',
};

/** Under `-o json|ndjson` the error is also one JSON object on stderr, after its line. */
function writeJsonError(stderr: OutputStream, exit: number, message: string): void {
  const code = ERROR_CODES[exit] ?? 'internal';
  stderr.write(`${JSON.stringify({ error: { code, exit, message } })}\n`);
}

/** The exit code of a failure, and the message of the line written for it (without `loanctl: `). */
interface Failure {
  exit: number;
  message: string;
}

/** Writes the error's line on stderr; returns its exit code and message. */
function reportError(error: unknown, deps: Deps, stderr: OutputStream, debug: boolean): Failure {
  if (error instanceof CommanderError) {
    // Commander has already printed its message (and a "Did you mean …?" suggestion).
    return { exit: isRequestedHelp(error) ? ExitCode.ok : ExitCode.usage, message: error.message };
  }
  if (error instanceof DryRunComplete) return { exit: ExitCode.ok, message: '' };
  // A system error about a file (`open`, `mkdir`… carry its path): said as one line naming it.
  const path = (error as NodeJS.ErrnoException | undefined)?.path;
  if (typeof path === 'string' && !(error instanceof LoanctlError))
    error = localFileError(error, path, 'the file', 'use');
  if (error instanceof LoanctlError) {
    // --raw prints the envelope as received, also when it carries an error (for scripts).
    const reply = error.reply;
    if (deps.globals.raw && reply?.envelope !== undefined && !reply.shown) {
      deps.io.stdout.write(reply.rawBody.endsWith('\n') ? reply.rawBody : `${reply.rawBody}\n`);
    }
    const message = formatError(error);
    stderr.write(`loanctl: ${message}\n`);
    if (debug && error.cause instanceof Error) stderr.write(`${error.cause.stack}\n`);
    return { exit: error.exitCode, message };
  }
  if (isPromptExit(error)) {
    stderr.write('loanctl: cancelled.\n');
    return { exit: ExitCode.cancelled, message: 'cancelled.' };
  }
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(`loanctl: unexpected error: ${message}${debug ? '' : ' (run again with --debug for details)'}\n`);
  if (debug && error instanceof Error) stderr.write(`${error.stack}\n`);
  return { exit: ExitCode.api, message: `unexpected error: ${message}` };
}

/** @inquirer/prompts rejects with ExitPromptError when the operator presses Ctrl-C. */
function isPromptExit(error: unknown): boolean {
  return error instanceof Error && error.name === 'ExitPromptError';
}

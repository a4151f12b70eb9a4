/**
 * main(argv, deps) → exit code. The one place where errors become exit codes and lines on stderr
 * (conventions.md, "Exit codes"): a typed LoanctlError carries its own code; commander's parse
 * errors are usage errors (2); anything else is a bug, reported in one line (stack with --debug).
 */
import type { CommanderError } from 'commander';
import { type Deps, productionDeps } from './deps.js';
import { DryRunComplete, ExitCode, formatError, LoanctlError } from './errors.js';

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
  // Commander and the command tree (src/entry.ts answers --version and a piped --help without them).
  const [{ CommanderError }, { buildProgram }] = await Promise.all([import('commander'), import('./program.js')]);
  const program = buildProgram(deps);
  let code: number = ExitCode.ok;
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    code = exitCodeFor(error, deps, debug, CommanderError);
  }
  // Close the keep-alive pool, or its idle sockets would hold the process open for seconds. After
  // Ctrl-C (130) a request may still be out: drop it, or the exit would wait for its reply or its
  // timeout (up to --timeout) after the summary is already on screen.
  await deps.dispose({ abort: code === ExitCode.cancelled });
  return code;
}

function exitCodeFor(error: unknown, deps: Deps, debug: boolean, commanderError: typeof CommanderError): number {
  const stderr = deps.io.stderr;
  if (error instanceof commanderError) {
    // Commander has already printed its message (and a "Did you mean …?" suggestion).
    return isRequestedHelp(error) ? ExitCode.ok : ExitCode.usage;
  }
  if (error instanceof DryRunComplete) return ExitCode.ok;
  if (error instanceof LoanctlError) {
    // --raw prints the envelope as received, also when it carries an error (for scripts).
    const reply = error.reply;
    if (deps.globals.raw && reply?.envelope !== undefined && !reply.shown) {
      deps.io.stdout.write(reply.rawBody.endsWith('\n') ? reply.rawBody : `${reply.rawBody}\n`);
    }
    stderr.write(`loanctl: ${formatError(error)}\n`);
    if (debug && error.cause instanceof Error) stderr.write(`${error.cause.stack}\n`);
    return error.exitCode;
  }
  if (isPromptExit(error)) {
    stderr.write('loanctl: cancelled.\n');
    return ExitCode.cancelled;
  }
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(`loanctl: unexpected error: ${message}${debug ? '' : ' (run again with --debug for details)'}\n`);
  if (debug && error instanceof Error) stderr.write(`${error.stack}\n`);
  return ExitCode.api;
}

/** @inquirer/prompts rejects with ExitPromptError when the operator presses Ctrl-C. */
function isPromptExit(error: unknown): boolean {
  return error instanceof Error && error.name === 'ExitPromptError';
}

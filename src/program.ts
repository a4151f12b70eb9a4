/**
 * Builds the commander tree. Each noun's index.ts registers its verbs; a verb's action imports the
 * file that does the work only when it runs, so building the tree stays cheap (and shell
 * completion can walk this same tree).
 */
import { Command } from 'commander';
import { registerSandboxCommands } from './commands/sandbox/index.js';
import type { Deps } from './deps.js';
import { VERSION } from './version.js';

export function buildProgram(deps: Deps): Command {
  const program = new Command('loanctl')
    .description('Run the loan origination flow of a Lending Origination API from your terminal.')
    .version(VERSION, '-v, --version', 'print the version')
    .option('--debug', 'log each request and response to stderr (API key redacted)')
    .showSuggestionAfterError(true)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => deps.io.stdout.write(text),
      writeErr: (text) => deps.io.stderr.write(text),
    });
  registerSandboxCommands(program, deps);
  return program;
}

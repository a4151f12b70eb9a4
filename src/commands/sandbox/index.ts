import type { Command } from 'commander';
import type { Deps } from '../../deps.js';

/** `loanctl sandbox …`: the local implementation of the whole API. */
export function registerSandboxCommands(program: Command, _deps: Deps): void {
  program.command('sandbox').description('Run a local sandbox of the whole Lending Origination API');
}

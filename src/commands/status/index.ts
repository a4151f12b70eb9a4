/**
 * `loanctl status`: one screen of what needs the operator. A command of the program itself with
 * no verbs of its own: written as ../common/verb.ts says a verb is (./status-verb.ts).
 */
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { statusVerb } from './status-verb.js';

export function registerStatusCommand(program: Command, deps: Deps): void {
  statusVerb(program, deps);
}

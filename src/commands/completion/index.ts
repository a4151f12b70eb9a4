/**
 * `loanctl completion bash|zsh|fish` and the hidden `loanctl __complete`: commands of the program
 * itself, with no verbs of their own, written as ../common/verb.ts says a verb is
 * (./completion-verb.ts); this file only adds them.
 */
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { complete, completion } from './completion-verb.js';

export function registerCompletionCommand(program: Command, deps: Deps): void {
  completion(program, deps);
  complete(program, deps);
}

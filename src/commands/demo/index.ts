/**
 * `loanctl demo`: a command of the program itself, with no verbs of its own, written as
 * ../common/verb.ts says a verb is (./demo-verb.ts); this file only adds it.
 */
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { demo } from './demo-verb.js';

export function registerDemoCommand(program: Command, deps: Deps): void {
  demo(program, deps);
}

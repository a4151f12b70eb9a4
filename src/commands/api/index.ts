/**
 * `loanctl api METHOD PATH`: the raw escape hatch, with the profile's auth. A command of the
 * program itself, with no verbs of its own: it is written as ../common/verb.ts says a verb is
 * (./api-verb.ts), and this file only adds it.
 */
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { apiRequest } from './api-verb.js';

export function registerApiCommand(program: Command, deps: Deps): void {
  apiRequest(program, deps);
}

/**
 * `loanctl cache …`: what loanctl keeps only to be faster, the local index of borrowers and the
 * references seen (src/config/user-index.ts). Needs no API key and sends nothing. This file only lists the
 * verbs; each is written as ../common/verb.ts says.
 */
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';
import { cacheClear } from './clear-verb.js';

const CACHE_VERBS: readonly Verb[] = [cacheClear];

/** Adds the verbs to `cache`, which src/program.ts created with its description. */
export function addVerbs(cache: Command, deps: Deps): void {
  cache.addHelpText('after', examples('loanctl cache clear'));
  for (const add of CACHE_VERBS) add(cache, deps);
}

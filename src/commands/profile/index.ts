/**
 * `loanctl profile …`: named connections (base URL, API key, default product id) kept in one
 * 0600 file, the API key in the OS keyring where one answers (config/key-storage.ts). This file
 * only lists the verbs, in the order the help shows them; each is written as ../common/verb.ts says.
 */
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';
import { profileAdd } from './add-verb.js';
import { profileList } from './list-verb.js';
import { profileMoveKey } from './move-key-verb.js';
import { profileRemove } from './remove-verb.js';
import { profileSet } from './set-verb.js';
import { profileShow } from './show-verb.js';
import { profileTest } from './test-verb.js';
import { profileUse } from './use-verb.js';

const PROFILE_VERBS: readonly Verb[] = [
  profileAdd,
  profileSet,
  profileList,
  profileUse,
  profileShow,
  profileTest,
  profileMoveKey,
  profileRemove,
];

/** Adds the verbs to `profile`, which src/program.ts created with its description. */
export function addVerbs(profile: Command, deps: Deps): void {
  profile.addHelpText(
    'after',
    examples(
      'printf \'%s\' "$LENDER_KEY" | loanctl profile add prod --base-url https://api.example.com --product-id 12 --api-key-stdin',
      'loanctl profile list',
      'loanctl profile use prod',
      'loanctl profile test prod',
    ),
  );
  for (const add of PROFILE_VERBS) add(profile, deps);
}

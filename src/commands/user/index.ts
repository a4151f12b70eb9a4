/**
 * `loanctl user …`: borrower users. This file only lists the verbs, in the order the help shows
 * them; each is written as ../common/verb.ts says.
 */
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';
import { userCreate } from './create-verb.js';
import { userExists } from './exists-verb.js';
import { userFind } from './find-verb.js';
import { userList } from './list-verb.js';
import { userShow } from './show-verb.js';

const USER_VERBS: readonly Verb[] = [userCreate, userExists, userShow, userFind, userList];

/** Adds the verbs to `user`, which src/program.ts created with its description. */
export function addVerbs(user: Command, deps: Deps): void {
  user.addHelpText(
    'after',
    examples(
      'loanctl user create --firstname Ada --lastname Obi --email ada@example.com --phone 08012345678 --gender female',
      'loanctl user exists --email ada@example.com',
      'loanctl user list --all -o csv',
    ),
  );
  for (const add of USER_VERBS) add(user, deps);
}

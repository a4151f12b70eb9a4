/**
 * `loanctl cache clear`: deletes the index files of every profile. The next look-up of each
 * e-mail searches the user list again (and fills the index anew).
 */
import { clearUserIndexes } from '../../config/user-index.js';
import type { Deps } from '../../deps.js';
import { notice } from '../../output/notice.js';

export function runCacheClear(deps: Deps): void {
  const { dir, removed } = clearUserIndexes(deps.env);
  notice(deps, `Removed ${removed} index file${removed === 1 ? '' : 's'} from ${dir}.`);
}

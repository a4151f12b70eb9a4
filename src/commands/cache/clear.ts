/**
 * `loanctl cache clear`: deletes the index files of every profile. The next look-up of each
 * e-mail searches the user list again (and fills the index anew). Prints {dir, removed} through
 * -o like any data (a table says it on stderr only).
 */
import { clearUserIndexes } from '../../config/user-index.js';
import type { Deps } from '../../deps.js';
import { notice } from '../../output/notice.js';
import { openOutcome } from '../../output/render.js';

export async function runCacheClear(deps: Deps): Promise<void> {
  const output = await openOutcome(deps, ['dir', 'removed']);
  const { dir, removed } = clearUserIndexes(deps.env);
  notice(deps, `Removed ${removed} index file${removed === 1 ? '' : 's'} from ${dir}.`);
  await output.print({ dir, removed }, []);
}

/**
 * The borrower columns of the loan lists (`borrower_email`, `borrower_phone`: src/output/columns.ts
 * BORROWER_COLUMNS), filled by each row's `user_id` from the local index of borrowers
 * (src/domain/borrower-index.ts `contacts`). Only when `--fields` names one: a list without them
 * reads no user and holds no index. The index is brought up to date once, before the first row
 * (the first time on a profile: the whole user list, which stderr announces); then every row is
 * answered from memory. A borrower the index still lacks gets empty cells, and one warning at the
 * end counts them: a cell is never filled with a guess.
 */
import type { Deps } from '../../deps.js';
import type { BorrowerContacts } from '../../domain/borrower-contacts.js';
import { userLookup } from '../../domain/user-lookup.js';
import type { FindUserOptions } from '../../domain/users.js';
import { BORROWER_COLUMNS } from '../../output/columns.js';
import { notice } from '../../output/notice.js';
import { startWalkProgress } from '../../output/walk-progress.js';

/** A row with the borrower's cells: null where the index has no such borrower. */
type WithBorrower<Row> = Row & { borrower_email: string | null; borrower_phone: string | null };

export interface BorrowerJoin {
  /** The rows, each with its borrower's e-mail and phone. */
  rows<Row extends { user_id: number }>(rows: readonly Row[]): WithBorrower<Row>[];
  /** Warns once (on stderr) of the rows whose borrower was not found. */
  end(): void;
}

/** How many borrower ids a warning names before it only counts. */
const NAMED_IDS = 10;

/**
 * The join, when `fields` names a borrower column (undefined otherwise, and under --dry-run, which
 * sends nothing but the list's own request). Call it once the list's Output is open (its `--fields`
 * checked, presets expanded) and before the first page is asked for; `lookup`: the command's own
 * look-ups (`--user`), whose index this shares.
 */
export async function borrowerJoin(
  deps: Deps,
  fields: readonly string[] | undefined,
  lookup?: FindUserOptions,
): Promise<BorrowerJoin | undefined> {
  if (!BORROWER_COLUMNS.some((column) => fields?.includes(column.key))) return undefined;
  const { index } = lookup ?? (await userLookup(deps));
  if (!index) return undefined;
  if (!index.exists()) {
    notice(
      deps,
      'Reading the whole user list into the local index of borrowers, for the e-mail and phone columns (once: later runs read only new borrowers).',
    );
  }
  const progress = startWalkProgress(deps, 'users', { matched: false });
  const contacts = await index.contacts(progress.page).finally(() => progress.stop());
  return joinWith(deps, contacts);
}

function joinWith(deps: Deps, contacts: BorrowerContacts): BorrowerJoin {
  let missingRows = 0;
  const missingIds = new Set<number>();
  return {
    rows: (rows) =>
      rows.map((row) => {
        const contact = contacts.of(row.user_id);
        if (!contact) {
          missingRows++;
          missingIds.add(row.user_id);
        }
        return { ...row, borrower_email: contact?.email || null, borrower_phone: contact?.phone || null };
      }),
    end() {
      if (missingRows === 0) return;
      const ids = [...missingIds];
      const named =
        ids.slice(0, NAMED_IDS).join(', ') + (ids.length > NAMED_IDS ? ` and ${ids.length - NAMED_IDS} more` : '');
      notice(
        deps,
        `warning: ${missingRows} loan request${missingRows === 1 ? "'s borrower is" : "s' borrowers are"} not in the user list (user id${ids.length === 1 ? '' : 's'} ${named}): borrower_email and borrower_phone are left empty there.`,
      );
    },
  };
}

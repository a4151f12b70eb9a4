/**
 * A bulk task that keeps the journal (./journal.ts): a row acknowledged in an earlier run of the
 * same file is `exists` without a request; a row whose earlier outcome is unknown is looked up on
 * the server first (where the task can look up); every other row is written `S` to the journal
 * before it is sent and `A` once acknowledged. The caller marks refusals (`refused`), since only it
 * knows which failures were answered and which were not.
 */
import type { BulkTask, RowOutcome } from './engine.js';
import type { Journal } from './journal.js';

export type LookUp<P> = (prepared: P, claimed: (id: number) => boolean) => Promise<RowOutcome | undefined>;

export function remembered<P>(
  task: BulkTask<P>,
  journal: Journal,
  identify: (prepared: P) => Partial<RowOutcome>,
  lookUp?: LookUp<P>,
): BulkTask<P> {
  return {
    ...task,
    async execute(prepared, row) {
      const memory = journal.recall(row);
      if (memory?.state === 'acknowledged') {
        const what = memory.id === undefined ? '' : ` (id ${memory.id})`;
        return {
          status: 'exists',
          id: memory.id,
          reference: memory.reference,
          ...identify(prepared),
          message: `Row ${row} was acknowledged in an earlier run of this file${what}; skipped.`,
        };
      }
      if (memory?.state === 'unknown' && lookUp) {
        const found = await lookUp(prepared, (id) => journal.claims(id));
        if (found) {
          await journal.acknowledged(row, found.id, found.reference);
          return found;
        }
      }
      await journal.sending(row);
      const outcome = await task.execute(prepared, row);
      await journal.acknowledged(row, outcome.id, outcome.reference);
      return outcome;
    },
  };
}

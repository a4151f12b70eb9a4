/**
 * A bulk task that keeps the journal (./journal.ts). The journal remembers; the server decides
 * (a server reset since the last run must not make a re-run skip rows whose records are gone):
 *
 * - A row acknowledged in an earlier run is skipped only once the server shows its record still
 *   there (`verify`: for a loan request, that id with that user). A task with no cheaper check
 *   (users: the API answers `exists` for a known e-mail, in one request, as a check would) sends
 *   the row again. A record gone (a reset, a restore, another data dir) is created again.
 * - A row whose earlier outcome is unknown is looked up on the server first (`lookUp`).
 * - Every row sent is written `S` to the journal before it is sent (awaited: the line is with the
 *   operating system before the request leaves) and `A` once acknowledged (not awaited: see
 *   Journal.acknowledged). The caller marks refusals (`refused`), since only it knows which
 *   failures were answered and which were not.
 */
import type { BulkTask, RowOutcome } from './engine.js';
import type { Journal, RowMemory } from './journal.js';

type LookUp<P> = (prepared: P, claimed: (id: number) => boolean) => Promise<RowOutcome | undefined>;

/** Whether the record an earlier run acknowledged for this row is still on the server. */
type Verify<P> = (prepared: P, memory: Extract<RowMemory, { state: 'acknowledged' }>) => Promise<boolean>;

export interface ServerChecks<P> {
  lookUp?: LookUp<P> | undefined;
  verify?: Verify<P> | undefined;
}

export function remembered<P>(
  task: BulkTask<P>,
  journal: Journal,
  identify: (prepared: P) => Partial<RowOutcome>,
  checks: ServerChecks<P> = {},
): BulkTask<P> {
  return {
    ...task,
    async execute(prepared, row) {
      const memory = journal.recall(row);
      if (memory?.state === 'acknowledged' && checks.verify && (await checks.verify(prepared, memory))) {
        const what = memory.id === undefined ? '' : ` (id ${memory.id})`;
        return {
          status: 'exists',
          id: memory.id,
          reference: memory.reference,
          ...(memory.userId === undefined ? {} : { user_id: memory.userId }),
          ...identify(prepared),
          message: `Row ${row} was acknowledged in an earlier run of this file${what}, and the server still has it; skipped.`,
        };
      }
      if (memory?.state === 'unknown' && checks.lookUp) {
        const found = await checks.lookUp(prepared, (id) => journal.claims(id));
        if (found) {
          void journal.acknowledged(row, found).catch(() => {});
          return found;
        }
      }
      await journal.sending(row);
      const outcome = await task.execute(prepared, row);
      void journal.acknowledged(row, outcome).catch(() => {});
      if (memory?.state === 'acknowledged' && outcome.status === 'success') {
        const gone = 'An earlier run of this file created it, but the server no longer had it (a reset or a restore?)';
        return { ...outcome, message: `${outcome.message.replace(/\.?$/, '.')} ${gone}; created again.` };
      }
      return outcome;
    },
  };
}

/**
 * What each bulk kind is: the columns its rows can have and need, what one row makes (for
 * messages), and its task with the server checks that make a re-run safe (./remembered.ts).
 * `user create --from`, `loan create --from` and `loan approve --from` share everything else
 * (./run.ts).
 */
import type { Deps } from '../deps.js';
import { referencesSeen, userLookup } from '../domain/user-lookup.js';
import type { ApiClient } from '../http/api-client.js';
import {
  type AcceptedWarnings,
  APPROVAL_FIELDS,
  APPROVAL_REQUIRED,
  type ApprovalRow,
  approvalTask,
} from './approvals.js';
import type { BulkTask, RowOutcome } from './engine.js';
import { LOAN_FIELDS, LOAN_REQUIRED, type LoanRow, loanTask } from './loans.js';
import type { ServerChecks } from './remembered.js';
import { USER_FIELDS, USER_REQUIRED, userTask } from './users.js';

export type BulkKind = 'user' | 'loan' | 'approval';

export const KINDS: Record<
  BulkKind,
  {
    fields: readonly string[];
    required: readonly (readonly string[])[];
    /** What one row makes, and what happens to it: `This approval may or may not have been applied.` */
    noun: string;
    made: string;
  }
> = {
  user: { fields: USER_FIELDS, required: USER_REQUIRED, noun: 'user', made: 'created' },
  loan: { fields: LOAN_FIELDS, required: LOAN_REQUIRED, noun: 'loan request', made: 'created' },
  approval: { fields: APPROVAL_FIELDS, required: APPROVAL_REQUIRED, noun: 'approval', made: 'applied' },
};

export interface KindTaskOptions {
  /** The client rows are sent with (under --dry-run, one that prints and sends nothing). */
  api: () => ApiClient;
  /** A client that reads even under --dry-run (approvals review each row against the server). */
  read: () => ApiClient;
  defaultProduct: number | undefined;
  dryRun: boolean;
  accepted: AcceptedWarnings;
  showReview?: ((row: number, lines: readonly string[]) => void) | undefined;
}

/**
 * The task of `kind`, the server checks that vouch for what the journal remembers, and what to
 * write once the run ends (`flush`: the references of the users made, for `user show`).
 */
export async function kindTask(
  kind: BulkKind,
  options: KindTaskOptions,
  deps: Deps,
): Promise<{ task: BulkTask<unknown>; checks: ServerChecks<unknown>; flush?: () => unknown }> {
  const { api, defaultProduct, dryRun } = options;
  if (kind === 'user') {
    const references = await referencesSeen(deps); // the user rows' references, for `user show`
    return { task: userTask(api, references?.add) as BulkTask<unknown>, checks: {}, flush: () => references?.flush() };
  }
  const task =
    kind === 'loan'
      ? loanTask(api, { defaultProduct, dryRun, lookup: await userLookup(deps) })
      : approvalTask({ ...options, send: api, now: deps.now });
  return { task: task as BulkTask<unknown>, checks: task as ServerChecks<unknown> };
}

/** What names a row's record in its result line: its e-mail, its borrower, or its loan request. */
export function identify(prepared: unknown): Partial<RowOutcome> {
  if (typeof prepared !== 'object' || prepared === null) return {};
  const email = (prepared as { email?: unknown }).email;
  if (typeof email === 'string') return { email };
  const user = (prepared as Partial<LoanRow>).user;
  if (user?.kind === 'id') return { user_id: user.id };
  if (user?.kind === 'email') return { email: user.email };
  const loan = (prepared as Partial<ApprovalRow>).loan;
  if (loan) return 'id' in loan ? { id: loan.id } : { reference: loan.reference };
  return {};
}

/** The e-mail (or user id) a row names, as written, so a row refused locally can still be found. */
export function rowKey(fields: Record<string, unknown>): Partial<RowOutcome> {
  const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '');
  const email = text(fields.email) || (text(fields.user).includes('@') ? text(fields.user) : '');
  if (email) return { email };
  const id = Number(text(fields.user_id) || text(fields.user));
  return Number.isSafeInteger(id) && id > 0 ? { user_id: id } : {};
}

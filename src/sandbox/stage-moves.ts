/**
 * The state table (src/contract/states.ts) enforced and applied for every route on a loan
 * request, before its handler runs and inside its transaction (a refusal later in the request
 * rolls the move back): an operation that may not start from the loan request's stage is refused
 * with its row's own error reply, and a move writes its stage's marks, its state fields and the
 * stage's progress marker. No handler reads or writes a stage itself.
 */
import type { OperationKey } from '../contract/operations.js';
import { carriesStage, moveColumns, progressAfter, refusalFor, stateRow } from '../contract/states.js';
import { type ErrorName, refuse } from './envelope.js';
import type { LoanRequestRow, Repos } from './repos/index.js';

/** Checks that `key` may start from the loan request's stage and makes its move; returns the row as it was. */
export function enterStage(key: string, loanRequest: LoanRequestRow, repos: Repos, stamp: string): LoanRequestRow {
  const refusal = refusalFor(key, loanRequest);
  if (refusal !== undefined) throw refuse(key as OperationKey, refusal as ErrorName<OperationKey>);
  const row = stateRow(key);
  if (row?.to === undefined || (row.again === 'unchanged' && carriesStage(loanRequest, row.to))) return loanRequest;
  const columns = moveColumns(row.to, row.writes, stamp);
  const progress = progressAfter(row.to, loanRequest.progress);
  repos.loanRequests.setColumns(loanRequest.id, progress === undefined ? columns : { ...columns, progress }, stamp);
  return loanRequest;
}

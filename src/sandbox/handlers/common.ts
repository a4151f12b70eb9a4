/** What the handlers of every resource group share: the reply, progress markers, re-reading a loan request. */
import type { Outcome } from '../envelope.js';
import type { KeyOwner, LoanRequestRow, Repos } from '../repos/index.js';
import * as serialize from '../serialize.js';

/**
 * The progress markers of supporting information. Adding some sets the marker of what was added,
 * until a stage's marker is set: each stage's move sets its own (the state table's `progress`,
 * src/contract/table/stages.ts; later ones stay, informationProgress there). A loan request with
 * no marker yet has no `progress` field, and GET progress answers `new`.
 */
export const PROGRESS = {
  none: 'new',
  bankDetails: 'bank_details',
  business: 'business_information',
  employment: 'employment',
  guarantor: 'guarantor',
  document: 'document',
} as const;

export function ok(message: string, data: unknown, data1?: unknown): Outcome {
  return data1 === undefined ? { status: 'success', message, data } : { status: 'success', message, data, data1 };
}

function reload(ctx: { repos: Repos; caller: KeyOwner }, id: number): LoanRequestRow {
  const row = ctx.repos.loanRequests.findInOrg(ctx.caller.org_id, id);
  if (!row) throw new Error(`loan request ${id} vanished inside its own transaction`);
  return row;
}

export function loanRequestJson(ctx: { repos: Repos; caller: KeyOwner }, id: number) {
  return serialize.loanRequest(reload(ctx, id));
}

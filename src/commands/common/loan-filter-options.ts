/**
 * The filter flags of `loan list` (and what `loan queue` builds on): parsed and checked before
 * anything is sent, then turned into a LoanFilter (src/domain/loan-filter.ts). A date is a UTC day
 * (`2026-03-02`: `--X-since` from its start, `--X-until` to its end, both inclusive) or an instant
 * with its zone (`2026-03-02T09:30:00Z`).
 */

import { parseStage, STAGE_CHOICES, STAGES, type Stage } from '../../contract/states.js';
import { DATE_PATTERN } from '../../contract/vocabulary.js';
import type { LoanFilter, TimeWindow } from '../../domain/loan-filter.js';
import { type FindUserOptions, userIdOf } from '../../domain/users.js';
import { UsageError } from '../../errors.js';
import type { ApiClient } from '../../http/api-client.js';
import { parseAmount, parseDate, parseText, parseUserRef, type UserRef } from '../../input/values.js';

export interface LoanFilterFlags {
  stage?: string;
  status?: string;
  lenderStatus?: string;
  userStatus?: string;
  user?: string;
  createdSince?: string;
  createdUntil?: string;
  submittedSince?: string;
  submittedUntil?: string;
  approvedSince?: string;
  approvedUntil?: string;
  minAmount?: string;
  maxAmount?: string;
}

/** Each flag with the option key commander gives it, in the order `--help` lists them (for hints). */
const LOAN_FILTER_FLAGS: ReadonlyArray<[keyof LoanFilterFlags, string]> = [
  ['stage', '--stage'],
  ['status', '--status'],
  ['lenderStatus', '--lender-status'],
  ['userStatus', '--user-status'],
  ['user', '--user'],
  ['createdSince', '--created-since'],
  ['createdUntil', '--created-until'],
  ['submittedSince', '--submitted-since'],
  ['submittedUntil', '--submitted-until'],
  ['approvedSince', '--approved-since'],
  ['approvedUntil', '--approved-until'],
  ['minAmount', '--min-amount'],
  ['maxAmount', '--max-amount'],
];

/** The filter as parsed, with the borrower still a reference (an e-mail is looked up only once the rest is valid). */
export interface ParsedLoanFilter {
  filter: LoanFilter;
  user: UserRef | undefined;
}

const DAY_MS = 86_400_000;

/** Every filter flag checked (exit 2 on the first bad one), nothing looked up yet. */
export function parseLoanFilter(flags: LoanFilterFlags): ParsedLoanFilter {
  const state = (raw: string | undefined, flag: string) => (raw === undefined ? undefined : parseText(raw, flag));
  const amount = (raw: string | undefined, flag: string) => (raw === undefined ? undefined : parseAmount(raw, flag));
  const filter: LoanFilter = {
    stage: flags.stage === undefined ? undefined : stageFlag(flags.stage, '--stage'),
    status: state(flags.status, '--status'),
    lenderStatus: state(flags.lenderStatus, '--lender-status'),
    userStatus: state(flags.userStatus, '--user-status'),
    created: timeWindow(flags.createdSince, flags.createdUntil, 'created'),
    submitted: timeWindow(flags.submittedSince, flags.submittedUntil, 'submitted'),
    approved: timeWindow(flags.approvedSince, flags.approvedUntil, 'approved'),
    minAmount: amount(flags.minAmount, '--min-amount'),
    maxAmount: amount(flags.maxAmount, '--max-amount'),
  };
  if (filter.minAmount !== undefined && filter.maxAmount !== undefined && filter.minAmount > filter.maxAmount) {
    throw new UsageError(
      `--min-amount (${filter.minAmount}) is more than --max-amount (${filter.maxAmount}): nothing could match.`,
    );
  }
  const user = flags.user === undefined ? undefined : parseUserRef(flags.user, '--user');
  return { filter, user };
}

/** A stage as typed (name or alias, any case), or exit 2 listing the stages of the state table. */
export function stageFlag(raw: string, flag: string): Stage {
  const stage = parseStage(raw);
  if (stage === undefined) {
    throw new UsageError(
      `${flag}: "${raw}" is not a stage of a loan request.`,
      `Pass one of ${STAGE_CHOICES.join(', ')}, e.g. ${flag} ${STAGES[1]}.`,
    );
  }
  return stage;
}

/** The filter with `--user` resolved to an id (an e-mail through the user directory, src/domain/users.ts). */
export async function resolveLoanFilter(
  parsed: ParsedLoanFilter,
  api: ApiClient,
  lookup: FindUserOptions = {},
): Promise<LoanFilter> {
  if (parsed.user === undefined) return parsed.filter;
  return { ...parsed.filter, userId: await userIdOf(api, parsed.user, lookup) };
}

/** The filter flags as given, to repeat in a "next:" hint: `--status pending --min-amount 5000`. */
export function filterFlagsText(flags: LoanFilterFlags): string {
  return LOAN_FILTER_FLAGS.filter(([key]) => flags[key] !== undefined)
    .map(([key, flag]) => `${flag} ${shellWord(flags[key] as string)}`)
    .join(' ');
}

function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

function timeWindow(since: string | undefined, until: string | undefined, name: string): TimeWindow | undefined {
  if (since === undefined && until === undefined) return undefined;
  const window: TimeWindow = {
    since: since === undefined ? undefined : instant(since, `--${name}-since`, 'start'),
    until: until === undefined ? undefined : instant(until, `--${name}-until`, 'end'),
  };
  if (window.since !== undefined && window.until !== undefined && window.since >= window.until) {
    throw new UsageError(`--${name}-since is after --${name}-until: nothing could match.`);
  }
  return window;
}

/** A day's start (or the start of the day after it, for `end`), or an instant written with its zone. */
function instant(raw: string, flag: string, edge: 'start' | 'end'): number {
  const text = raw.trim();
  if (DATE_PATTERN.test(text)) {
    const day = Date.parse(`${parseDate(text, flag)}T00:00:00Z`);
    return edge === 'start' ? day : day + DAY_MS;
  }
  const at = /T.*(Z|[+-]\d\d:?\d\d)$/i.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) {
    throw new UsageError(
      `${flag} must be a date (yyyy-mm-dd, a UTC day) or a timestamp with its zone (got ${JSON.stringify(raw)}).`,
      `For example: ${flag} 2026-03-02`,
    );
  }
  return edge === 'start' ? at : at + 1;
}

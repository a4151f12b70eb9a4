/**
 * The repayment module: a loan's repayment schedule and its estimated repayment.
 *
 * One module, used by the sandbox to fill `terms.estimated_repayment` on approval and by the CLI
 * for `loan schedule` and `loan approve --preview`, so both always agree. The spec gives the
 * fields (2.4, 4.19) but not the arithmetic; the rules below are ours, and the README section
 * "Repayment schedules" states them for operators.
 *
 * Rate, per rate type (`rate` is a percentage per `tenured_in` unit, except for fixed-amount):
 * - simple-interest: flat interest on the whole principal for the whole tenure,
 *   principal × rate% × tenure, spread evenly over the instalments with the principal.
 * - compound-interest: reducing balance, amortised. Each instalment is the same total; interest is
 *   charged each period on the principal still outstanding, at the periodic rate
 *   i = (1 + rate%)^(tenure / n) − 1 for n instalments: the rate compounded over the tenure, shared
 *   equally by the n instalment periods. When the instalment period is a whole number of tenure
 *   units this is the usual conversion by compounding (5% a week → 1.05² − 1 a fortnight); when it
 *   is not (weeks inside months) no day-count convention is needed, and the remainder of a tenure
 *   that is not a whole number of periods is still priced. Instalment = P·i / (1 − (1 + i)^−n).
 * - fixed-amount: `rate` is the interest in currency for the whole loan, spread evenly.
 * A zero rate means no interest, whatever the type.
 *
 * Dates (all UTC, whole days):
 * - The schedule starts `grace_period` days after `start`; no instalment falls due before then and
 *   the grace period adds no interest (interest is priced on the tenure only).
 * - Maturity = schedule start + tenure (calendar months for `months`, 7 days a week).
 * - Instalment period: daily 1 day, weekely 7, bi-weekly 14, monthly 1 calendar month (clamped to
 *   the end of a shorter month). n = the number of whole periods that fit between schedule start
 *   and maturity, at least 1. Instalments 1 … n−1 fall one, two, … periods after the schedule
 *   start; instalment n falls on maturity, so a remainder lengthens the last period.
 * - exclude_weekends: a due date on Saturday or Sunday moves to the next Monday. Due dates that
 *   then coincide (only daily instalments can) are one instalment, so daily instalments fall on
 *   weekdays only and n shrinks. Moving a date never changes the interest of simple-interest or
 *   fixed-amount; compound-interest depends only on n.
 * - maturity_date in the result is the last instalment's due date (after any weekend move).
 *
 * Money: amounts are computed in whole kobo (integers) and returned with 2 decimals. The principal
 * and a fixed interest amount are first rounded to the kobo. An even share is rounded down to the
 * kobo and the last instalment takes the remainder, so the principal column sums exactly to the
 * principal and no amount is ever negative; compound-interest rounds the instalment and each
 * period's interest half up, and the last instalment clears the balance. Every total is the sum of
 * its column; `balance` is the principal still outstanding after the instalment, ending at 0.
 */

import type { BodyOf } from '../contract/fields.js';
import {
  FREQUENCIES,
  type Frequency,
  RATE_TYPES,
  type RateType,
  TENURED_IN,
  type TenuredIn,
} from '../contract/schemas.js';
import { addMonths, dayOf, isoDay, LAST_DAY, onWeekday } from './dates.js';

export interface RepaymentTerms {
  /** The approved amount, in currency units. */
  principal: number;
  /** Percent per `tenured_in` unit; for `fixed-amount`, the interest in currency for the whole loan. */
  rate: number;
  /** Whole number of `tenured_in` units. */
  tenure: number;
  tenured_in: TenuredIn;
  rate_type: RateType;
  frequency: Frequency;
  /** Whole days after `start` before the schedule begins. Default 0. */
  grace_period?: number;
  /** Move a due date on Saturday or Sunday to the next Monday. Default false. */
  exclude_weekends?: boolean;
  /** The day the loan starts (approval/disbursement); only its UTC date counts. Default: today (UTC). */
  start?: Date;
}

export interface Instalment {
  /** 1-based. */
  number: number;
  /** yyyy-mm-dd (UTC). */
  due_date: string;
  principal: number;
  interest: number;
  /** principal + interest. */
  total: number;
  /** Principal still outstanding after this instalment. */
  balance: number;
}

export interface Schedule {
  instalments: Instalment[];
  total_principal: number;
  total_interest: number;
  total_repayment: number;
  /** The last instalment's due date. */
  maturity_date: string;
}

/** Thrown by buildSchedule and estimatedRepayment for terms that cannot be scheduled. */
export class RepaymentTermsError extends Error {
  /** Every problem, each as `field: what is wrong`. */
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`invalid repayment terms: ${problems.join('; ')}`);
    this.name = 'RepaymentTermsError';
    this.problems = problems;
  }
}

/** Longest loan the module schedules: 100 years, in each tenure unit. Bounds the instalment count. */
export const MAX_TENURE: Readonly<Record<TenuredIn, number>> = { months: 1200, weeks: 5217, days: 36_525 };
/** Longest grace period, in days (10 years). */
export const MAX_GRACE_PERIOD_DAYS = 3650;

/** Largest amount (in kobo) that is still an exact integer in a double. */
const MAX_KOBO = Number.MAX_SAFE_INTEGER;

const PERIOD_DAYS: Readonly<Record<Exclude<Frequency, 'monthly'>, number>> = {
  daily: 1,
  weekely: 7,
  'bi-weekly': 14,
};

/**
 * Every problem with `terms`, each as `field: what is wrong`; empty when buildSchedule will
 * succeed. Accepts anything, so a caller can check raw input and show all problems at once.
 */
export function validateRepaymentTerms(terms: unknown): string[] {
  const problems = inputProblems(terms);
  if (problems.length > 0) return problems;
  const result = compute(terms as RepaymentTerms);
  return Array.isArray(result) ? result : [];
}

/** The loan's repayment schedule. Throws RepaymentTermsError when the terms are invalid. */
export function buildSchedule(terms: RepaymentTerms): Schedule {
  const problems = inputProblems(terms);
  if (problems.length > 0) throw new RepaymentTermsError(problems);
  const result = compute(terms);
  if (Array.isArray(result)) throw new RepaymentTermsError(result);
  return result;
}

/** What the borrower repays in all: `buildSchedule(terms).total_repayment`. */
export function estimatedRepayment(terms: RepaymentTerms): number {
  return buildSchedule(terms).total_repayment;
}

/** The approval body of spec 4.19 as repayment terms; `approved_amount` is the principal. */
export function repaymentTermsFromApproval(approval: BodyOf<'approveLoanRequest'>, start?: Date): RepaymentTerms {
  return {
    principal: approval.approved_amount,
    rate: approval.rate,
    tenure: approval.tenure,
    tenured_in: approval.tenured_in,
    rate_type: approval.rate_type,
    frequency: approval.frequency,
    grace_period: approval.grace_period ?? 0,
    exclude_weekends: approval.exclude_weekends ?? false,
    ...(start ? { start } : {}),
  };
}

// ---------------------------------------------------------------------------------------------

/** Problems with the fields themselves, each as `field: what is wrong`. */
function inputProblems(terms: unknown): string[] {
  if (typeof terms !== 'object' || terms === null) return ['terms: must be an object'];
  const t = terms as Record<string, unknown>;
  const problems: string[] = [];

  const principal = t.principal;
  if (!isFiniteNumber(principal)) problems.push('principal: must be a number');
  else if (toKobo(principal) < 1) problems.push('principal: must be at least 0.01');
  else if (toKobo(principal) > MAX_KOBO) problems.push('principal: is too large');

  const tenuredIn = t.tenured_in;
  const tenuredInOk = isOneOf(tenuredIn, TENURED_IN);
  if (!tenuredInOk) problems.push(`tenured_in: must be one of ${TENURED_IN.join(', ')}`);

  const rateType = t.rate_type;
  const rateTypeOk = isOneOf(rateType, RATE_TYPES);
  if (!rateTypeOk) problems.push(`rate_type: must be one of ${RATE_TYPES.join(', ')}`);

  const frequency = t.frequency;
  if (!isOneOf(frequency, FREQUENCIES)) {
    const hint = frequency === 'weekly' ? " (the API spells it 'weekely')" : '';
    problems.push(`frequency: must be one of ${FREQUENCIES.join(', ')}${hint}`);
  }

  const rate = t.rate;
  if (!isFiniteNumber(rate)) problems.push('rate: must be a number');
  else if (rate < 0) problems.push('rate: must not be negative');

  const tenure = t.tenure;
  if (!isFiniteNumber(tenure)) problems.push('tenure: must be a number');
  else if (!Number.isInteger(tenure)) problems.push('tenure: must be a whole number');
  else if (tenure < 1) problems.push('tenure: must be at least 1');
  else if (tenuredInOk && tenure > MAX_TENURE[tenuredIn]) {
    problems.push(`tenure: must be at most ${MAX_TENURE[tenuredIn]} ${tenuredIn} (100 years)`);
  }

  const grace = t.grace_period;
  if (grace !== undefined) {
    if (!isFiniteNumber(grace)) problems.push('grace_period: must be a number of days');
    else if (!Number.isInteger(grace)) problems.push('grace_period: must be a whole number of days');
    else if (grace < 0) problems.push('grace_period: must not be negative');
    else if (grace > MAX_GRACE_PERIOD_DAYS)
      problems.push(`grace_period: must be at most ${MAX_GRACE_PERIOD_DAYS} days`);
  }

  if (t.exclude_weekends !== undefined && typeof t.exclude_weekends !== 'boolean') {
    problems.push('exclude_weekends: must be true or false');
  }

  if (t.start !== undefined && !(t.start instanceof Date && !Number.isNaN(t.start.getTime()))) {
    problems.push('start: must be a valid date');
  }

  return problems;
}

// ---------------------------------------------------------------------------------------------

/** The schedule of terms whose fields are sound, or the problem when its amounts overflow. */
function compute(terms: RepaymentTerms): Schedule | string[] {
  const scheduleStart = dayOf(terms.start ?? new Date()) + (terms.grace_period ?? 0);
  const dueDays = dueDates(scheduleStart, terms);
  if ((dueDays.at(-1) ?? scheduleStart) > LAST_DAY) return [`start: the schedule would run past ${isoDay(LAST_DAY)}`];
  const n = dueDays.length;
  const principal = toKobo(terms.principal);

  let rows: Array<{ principal: number; interest: number }>;
  if (terms.rate === 0) {
    rows = evenSplit(principal, 0, n);
  } else if (terms.rate_type === 'simple-interest') {
    rows = evenSplit(principal, roundKobo((principal * terms.rate * terms.tenure) / 100), n);
  } else if (terms.rate_type === 'fixed-amount') {
    rows = evenSplit(principal, toKobo(terms.rate), n);
  } else {
    rows = amortise(principal, terms.rate / 100, terms.tenure, n);
  }

  // Every amount must stay an exact integer of kobo (and never NaN): the totals bound each row.
  const repayment = rows.reduce((sum, row) => sum + row.principal + row.interest, 0);
  if (!Number.isSafeInteger(repayment)) return ['rate: gives a repayment too large to compute exactly'];

  let balance = principal;
  let totalPrincipal = 0;
  let totalInterest = 0;
  const instalments: Instalment[] = rows.map((row, index) => {
    balance -= row.principal;
    totalPrincipal += row.principal;
    totalInterest += row.interest;
    return {
      number: index + 1,
      due_date: isoDay(dueDays[index] as number),
      principal: fromKobo(row.principal),
      interest: fromKobo(row.interest),
      total: fromKobo(row.principal + row.interest),
      balance: fromKobo(balance),
    };
  });

  return {
    instalments,
    total_principal: fromKobo(totalPrincipal),
    total_interest: fromKobo(totalInterest),
    total_repayment: fromKobo(totalPrincipal + totalInterest),
    maturity_date: isoDay(dueDays[n - 1] as number),
  };
}

/** Due days of every instalment, in order and distinct; the last is maturity (maybe moved). */
function dueDates(scheduleStart: number, terms: RepaymentTerms): number[] {
  const maturity =
    terms.tenured_in === 'months'
      ? addMonths(scheduleStart, terms.tenure)
      : scheduleStart + terms.tenure * (terms.tenured_in === 'weeks' ? 7 : 1);

  const step =
    terms.frequency === 'monthly'
      ? (k: number) => addMonths(scheduleStart, k)
      : (k: number) => scheduleStart + k * PERIOD_DAYS[terms.frequency as Exclude<Frequency, 'monthly'>];

  // n = the whole periods that fit between schedule start and maturity, at least 1. Instalments
  // 1 … n−1 fall on their period's end; instalment n on maturity, so a remainder (or a tenure
  // shorter than one period) lengthens the last period instead of adding a short one.
  let n = 1;
  while (step(n + 1) <= maturity) n++;
  const nominal: number[] = [];
  for (let k = 1; k < n; k++) nominal.push(step(k));
  nominal.push(maturity);

  if (!terms.exclude_weekends) return nominal;
  const moved: number[] = [];
  for (const day of nominal.map(onWeekday)) {
    if (moved[moved.length - 1] !== day) moved.push(day);
  }
  return moved;
}

/** Principal and interest shared evenly: each share rounded down, the last takes the remainder. */
function evenSplit(principal: number, interest: number, n: number): Array<{ principal: number; interest: number }> {
  const principalShare = Math.floor(principal / n);
  const interestShare = Math.floor(interest / n);
  return Array.from({ length: n }, (_, index) =>
    index < n - 1
      ? { principal: principalShare, interest: interestShare }
      : { principal: principal - principalShare * (n - 1), interest: interest - interestShare * (n - 1) },
  );
}

/** Reducing balance with equal instalments (an annuity); `rate` per tenure unit as a fraction. */
function amortise(
  principal: number,
  rate: number,
  tenure: number,
  n: number,
): Array<{ principal: number; interest: number }> {
  // n·ln(1 + i) = tenure·ln(1 + rate). log1p/expm1 keep tiny rates exact instead of rounding 1 + r to 1.
  const logGrowth = Math.log1p(rate) * tenure;
  const periodic = Math.expm1(logGrowth / n); // i
  if (periodic === 0) return evenSplit(principal, 0, n);
  const instalment = roundKobo((principal * periodic) / -Math.expm1(-logGrowth)); // P·i / (1 − (1+i)^−n)
  const rows: Array<{ principal: number; interest: number }> = [];
  let balance = principal;
  for (let k = 1; k <= n; k++) {
    const interest = roundKobo(balance * periodic);
    const repaid = k === n ? balance : Math.min(balance, Math.max(0, instalment - interest));
    rows.push({ principal: repaid, interest });
    balance -= repaid;
  }
  return rows;
}

function toKobo(amount: number): number {
  return roundKobo(amount * 100);
}

function fromKobo(kobo: number): number {
  return kobo / 100;
}

/** Half up to a whole kobo, after dropping binary floating-point noise (0.1 × 3 = 0.30000000000000004). */
function roundKobo(kobo: number): number {
  return Math.round(Number(kobo.toPrecision(15)));
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isOneOf<T extends string>(value: unknown, allowed: readonly T[]): value is T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value);
}

/**
 * The arithmetic of a schedule, for terms whose fields are sound: due dates, then each
 * instalment's principal and interest by rate type, as ./index.ts's header states the rules.
 */
import type { Frequency } from '../contract/schemas.js';
import { addMonths, dayOf, isoDay, LAST_DAY, onWeekday } from './dates.js';
import { fromKobo, roundKobo, toKobo } from './money.js';
import type { Instalment, RepaymentTerms, Schedule } from './terms.js';

const PERIOD_DAYS: Readonly<Record<Exclude<Frequency, 'monthly'>, number>> = {
  daily: 1,
  weekely: 7,
  'bi-weekly': 14,
};

/** The schedule of terms whose fields are sound, or the problem when its amounts overflow. */
export function compute(terms: RepaymentTerms): Schedule | string[] {
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

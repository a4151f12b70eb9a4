/** Checking raw repayment terms field by field, before any arithmetic (./index.ts validates with it). */
import { FREQUENCIES, RATE_TYPES, TENURED_IN } from '../contract/schemas.js';
import { isOneOf } from '../contract/vocabulary.js';
import { MAX_KOBO, toKobo } from './money.js';
import { MAX_GRACE_PERIOD_DAYS, MAX_TENURE } from './terms.js';

/** Problems with the fields themselves, each as `field: what is wrong`. */
export function inputProblems(terms: unknown): string[] {
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

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

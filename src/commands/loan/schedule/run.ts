/**
 * `loanctl loan schedule`: the repayment schedule of some terms, computed offline by the same
 * repayment module the sandbox uses for `estimated_repayment` (no API key, nothing sent).
 *
 * Flags are parsed by the input module (so `weekly`, `simple`, `50,000` work as in `loan
 * approve`), then checked by validateRepaymentTerms; every problem, from either, is reported at
 * once in one line that names the flags (exit 2).
 */
import type { Deps } from '../../../deps.js';
import { UsageError } from '../../../errors.js';
import { rateFlag } from '../../../input/annual-rate.js';
import {
  parseAmount,
  parseDate,
  parseFrequency,
  parseNonNegativeNumber,
  parseRateType,
  parseTenuredIn,
  parseWholeNumber,
} from '../../../input/values.js';
import { renderSchedule } from '../../../output/schedule.js';
import {
  buildSchedule,
  isRepaymentTerms,
  type RepaymentTerms,
  validateRepaymentTerms,
} from '../../../repayment/index.js';
import { SCHEDULE_FLAGS } from './flags.js';

/** The repayment terms' flags as commander parses them (the approval's fields, src/contract/fields.ts). */
interface RepaymentTermFlags {
  rate?: string;
  tenure?: string;
  tenuredIn?: string;
  rateType?: string;
  frequency?: string;
  gracePeriod?: string;
  excludeWeekends?: boolean;
}

export interface LoanScheduleOptions extends RepaymentTermFlags {
  amount?: string;
  /** The yearly rate instead of `--rate` (./flags.ts rateFlag). */
  annualRate?: string;
  start?: string;
}

const SCHEDULE_EXAMPLE =
  'loanctl loan schedule --amount 100000 --rate 5 --tenure 3 --tenured-in months --rate-type simple-interest --frequency monthly';

export async function runLoanSchedule(options: LoanScheduleOptions, deps: Deps): Promise<void> {
  const terms = scheduleTerms(options, deps.now());
  await renderSchedule(buildSchedule(terms), terms, deps);
}

/**
 * The repayment terms the flags describe, or a UsageError listing every problem, e.g.
 * `Invalid repayment terms: --amount is required; --tenure must be at most 1200 months (100 years).`
 * `now` is the start when `--start` is not given.
 */
export function scheduleTerms(options: LoanScheduleOptions, now: Date): RepaymentTerms {
  const problems = new Map<string, string>();
  const take = <T>(
    field: string,
    raw: string | undefined,
    parse: (raw: string, flag: string) => T,
    required = true,
  ) => {
    const flag = SCHEDULE_FLAGS[field] as string;
    if (raw === undefined) {
      if (required) problems.set(field, `${flag} is required`);
      return undefined;
    }
    try {
      return parse(raw, flag);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      problems.set(field, error.message.replace(/\.$/, ''));
      return undefined;
    }
  };

  const start = take('start', options.start, parseDate, false);
  const rate = rateFlag(options);
  const candidate: Record<string, unknown> = {
    principal: take('principal', options.amount, parseAmount),
    rate: take('rate', rate, parseNonNegativeNumber),
    tenure: take('tenure', options.tenure, parseWholeNumber),
    tenured_in: take('tenured_in', options.tenuredIn, parseTenuredIn),
    rate_type: take('rate_type', options.rateType, parseRateType),
    frequency: take('frequency', options.frequency, parseFrequency),
    grace_period: take('grace_period', options.gracePeriod, parseWholeNumber, false),
    exclude_weekends: options.excludeWeekends ?? false,
    start: start === undefined ? now : new Date(`${start}T00:00:00Z`),
  };

  // The module's own rules (limits, whole numbers, the overflow check) for the fields that parsed.
  for (const problem of validateRepaymentTerms(candidate)) {
    const [field = '', what = problem] = problem.split(/: (.*)/s);
    if (problems.has(field)) continue;
    problems.set(field, SCHEDULE_FLAGS[field] ? `${SCHEDULE_FLAGS[field]} ${what}` : problem);
  }

  // With no problem, the candidate's fields all passed the module's checks: it is RepaymentTerms.
  if (problems.size > 0 || !isRepaymentTerms(candidate)) {
    // In the order of the flags, so the line reads like the command.
    const ordered = Object.keys(SCHEDULE_FLAGS)
      .filter((field) => problems.has(field))
      .map((field) => problems.get(field) as string);
    for (const [field, message] of problems) if (!(field in SCHEDULE_FLAGS)) ordered.push(message);
    throw new UsageError(`Invalid repayment terms: ${ordered.join('; ')}.`, `For example: ${SCHEDULE_EXAMPLE}`);
  }
  return candidate;
}

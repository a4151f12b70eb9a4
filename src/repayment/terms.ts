/** The repayment module's vocabulary: the terms it schedules, the schedule it returns, its limits. */
import type { Frequency, RateType, TenuredIn } from '../contract/schemas.js';

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

/** A type, not an interface: so an instalment is a `Record<string, unknown>`, the row the output's formats write. */
export type Instalment = {
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
};

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

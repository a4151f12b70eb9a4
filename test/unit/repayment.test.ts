/**
 * The repayment module against figures computed by hand (the arithmetic is in each comment), not
 * copied from the module's output. Dates: 2025-01-01 is a Wednesday, 2025-01-06 a Monday.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { frequencyOfStored } from '../../src/commands/loan/schedule/stored.js';
import type { BodyOf } from '../../src/contract/fields.js';
import type { UsageError } from '../../src/errors.js';
import { frequenciesRepaying, storedFrequency } from '../../src/repayment/stored.js';

type ApprovalTerms = BodyOf<'approveLoanRequest'>;

import {
  buildSchedule,
  estimatedRepayment,
  type Instalment,
  type RepaymentTerms,
  RepaymentTermsError,
  repaymentTermsFromApproval,
  type Schedule,
  validateRepaymentTerms,
} from '../../src/repayment/index.js';

const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

/** Instalment rows as [due_date, principal, interest, total, balance]. */
function rows(schedule: Schedule): Array<[string, number, number, number, number]> {
  return schedule.instalments.map((i) => [i.due_date, i.principal, i.interest, i.total, i.balance]);
}

function totals(schedule: Schedule) {
  const { total_principal, total_interest, total_repayment, maturity_date } = schedule;
  return { total_principal, total_interest, total_repayment, maturity_date };
}

describe('simple-interest: flat, principal × rate% × tenure, spread evenly', () => {
  it('monthly: 100,000 at 5% a month for 3 months', () => {
    // interest = 100,000 × 0.05 × 3 = 15,000 → 5,000 an instalment.
    // principal 100,000 / 3 = 33,333.333… → 33,333.33, 33,333.33, last 100,000 − 66,666.66 = 33,333.34.
    // totals 38,333.33, 38,333.33, 38,333.34 = 115,000. Dates: 1 Feb, 1 Mar, 1 Apr.
    const s = buildSchedule({
      principal: 100_000,
      rate: 5,
      tenure: 3,
      tenured_in: 'months',
      rate_type: 'simple-interest',
      frequency: 'monthly',
      start: day('2025-01-01'),
    });
    expect(rows(s)).toEqual([
      ['2025-02-01', 33_333.33, 5_000, 38_333.33, 66_666.67],
      ['2025-03-01', 33_333.33, 5_000, 38_333.33, 33_333.34],
      ['2025-04-01', 33_333.34, 5_000, 38_333.34, 0],
    ]);
    expect(totals(s)).toEqual({
      total_principal: 100_000,
      total_interest: 15_000,
      total_repayment: 115_000,
      maturity_date: '2025-04-01',
    });
  });

  it('weekely: 10,000 at 2% a week for 4 weeks', () => {
    // interest = 10,000 × 0.02 × 4 = 800 → 200 a week; principal 2,500 a week; 2,700 a week.
    // Start Monday 6 Jan → 13, 20, 27 Jan, 3 Feb.
    const s = buildSchedule({
      principal: 10_000,
      rate: 2,
      tenure: 4,
      tenured_in: 'weeks',
      rate_type: 'simple-interest',
      frequency: 'weekely',
      start: day('2025-01-06'),
    });
    expect(rows(s)).toEqual([
      ['2025-01-13', 2_500, 200, 2_700, 7_500],
      ['2025-01-20', 2_500, 200, 2_700, 5_000],
      ['2025-01-27', 2_500, 200, 2_700, 2_500],
      ['2025-02-03', 2_500, 200, 2_700, 0],
    ]);
    expect(s.total_repayment).toBe(10_800);
  });

  it('daily: 1,000 at 1% a day for 7 days', () => {
    // interest = 1,000 × 0.01 × 7 = 70 → 10 a day.
    // principal 1,000 / 7 = 142.857… → 142.85 × 6 = 857.10, last 1,000 − 857.10 = 142.90.
    const s = buildSchedule({
      principal: 1_000,
      rate: 1,
      tenure: 7,
      tenured_in: 'days',
      rate_type: 'simple-interest',
      frequency: 'daily',
      start: day('2025-01-06'),
    });
    expect(s.instalments.map((i) => i.due_date)).toEqual([
      '2025-01-07',
      '2025-01-08',
      '2025-01-09',
      '2025-01-10',
      '2025-01-11',
      '2025-01-12',
      '2025-01-13',
    ]);
    expect(s.instalments.map((i) => i.principal)).toEqual([142.85, 142.85, 142.85, 142.85, 142.85, 142.85, 142.9]);
    expect(s.instalments.map((i) => i.interest)).toEqual([10, 10, 10, 10, 10, 10, 10]);
    expect(s.instalments.at(-1)?.total).toBe(152.9);
    expect(totals(s)).toEqual({
      total_principal: 1_000,
      total_interest: 70,
      total_repayment: 1_070,
      maturity_date: '2025-01-13',
    });
  });

  it('bi-weekly inside months: 50,000 at 3% a month for 2 months; the remainder lengthens the last period', () => {
    // interest = 50,000 × 0.03 × 2 = 3,000. Maturity 1 Jan + 2 months = 1 Mar, 59 days later.
    // Whole fortnights in 59 days: 4 (56 days) → 4 instalments: 15 Jan, 29 Jan, 12 Feb, then 1 Mar
    // (maturity, 17 days after 12 Feb). Each: 12,500 principal + 750 interest = 13,250.
    const s = buildSchedule({
      principal: 50_000,
      rate: 3,
      tenure: 2,
      tenured_in: 'months',
      rate_type: 'simple-interest',
      frequency: 'bi-weekly',
      start: day('2025-01-01'),
    });
    expect(rows(s)).toEqual([
      ['2025-01-15', 12_500, 750, 13_250, 37_500],
      ['2025-01-29', 12_500, 750, 13_250, 25_000],
      ['2025-02-12', 12_500, 750, 13_250, 12_500],
      ['2025-03-01', 12_500, 750, 13_250, 0],
    ]);
    expect(s.total_repayment).toBe(53_000);
  });
});

describe('fixed-amount: rate is the interest in currency for the whole loan', () => {
  it('monthly from 31 January: 60,000 with 6,000 interest over 6 months, dates clamp to month end', () => {
    // 60,000 / 6 = 10,000 principal; 6,000 / 6 = 1,000 interest; 11,000 an instalment; 66,000 in all.
    // 31 Jan + k months, clamped: 28 Feb, 31 Mar (not 28 Mar), 30 Apr, 31 May, 30 Jun, 31 Jul.
    const s = buildSchedule({
      principal: 60_000,
      rate: 6_000,
      tenure: 6,
      tenured_in: 'months',
      rate_type: 'fixed-amount',
      frequency: 'monthly',
      start: day('2025-01-31'),
    });
    expect(s.instalments.map((i) => i.due_date)).toEqual([
      '2025-02-28',
      '2025-03-31',
      '2025-04-30',
      '2025-05-31',
      '2025-06-30',
      '2025-07-31',
    ]);
    expect(s.instalments.every((i) => i.principal === 10_000 && i.interest === 1_000 && i.total === 11_000)).toBe(true);
    expect(totals(s)).toEqual({
      total_principal: 60_000,
      total_interest: 6_000,
      total_repayment: 66_000,
      maturity_date: '2025-07-31',
    });
  });

  it('weekely: 7,000 with 100 interest over 3 weeks, rounding in both columns', () => {
    // principal 7,000 / 3 = 2,333.333… → 2,333.33, 2,333.33, last 7,000 − 4,666.66 = 2,333.34.
    // interest 100 / 3 = 33.333… → 33.33, 33.33, last 100 − 66.66 = 33.34.
    const s = buildSchedule({
      principal: 7_000,
      rate: 100,
      tenure: 3,
      tenured_in: 'weeks',
      rate_type: 'fixed-amount',
      frequency: 'weekely',
      start: day('2025-01-06'),
    });
    expect(rows(s)).toEqual([
      ['2025-01-13', 2_333.33, 33.33, 2_366.66, 4_666.67],
      ['2025-01-20', 2_333.33, 33.33, 2_366.66, 2_333.34],
      ['2025-01-27', 2_333.34, 33.34, 2_366.68, 0],
    ]);
    expect(s.total_repayment).toBe(7_100);
  });

  it('daily: 500 with 50 interest over 5 days (weekend dates kept when not excluded)', () => {
    // 500 / 5 = 100 principal, 50 / 5 = 10 interest. 7 Jan … 11 Jan (a Saturday, kept).
    const s = buildSchedule({
      principal: 500,
      rate: 50,
      tenure: 5,
      tenured_in: 'days',
      rate_type: 'fixed-amount',
      frequency: 'daily',
      start: day('2025-01-06'),
    });
    expect(rows(s)).toEqual([
      ['2025-01-07', 100, 10, 110, 400],
      ['2025-01-08', 100, 10, 110, 300],
      ['2025-01-09', 100, 10, 110, 200],
      ['2025-01-10', 100, 10, 110, 100],
      ['2025-01-11', 100, 10, 110, 0],
    ]);
    expect(s.total_repayment).toBe(550);
  });

  it('bi-weekly: 20,000 with 2,000 interest over 6 weeks', () => {
    // 42 days / 14 = 3 instalments: 20 Jan, 3 Feb, 17 Feb.
    // principal 20,000 / 3 = 6,666.666… → 6,666.66 twice, last 20,000 − 13,333.32 = 6,666.68.
    // interest 2,000 / 3 = 666.666… → 666.66 twice, last 2,000 − 1,333.32 = 666.68.
    const s = buildSchedule({
      principal: 20_000,
      rate: 2_000,
      tenure: 6,
      tenured_in: 'weeks',
      rate_type: 'fixed-amount',
      frequency: 'bi-weekly',
      start: day('2025-01-06'),
    });
    expect(rows(s)).toEqual([
      ['2025-01-20', 6_666.66, 666.66, 7_333.32, 13_333.34],
      ['2025-02-03', 6_666.66, 666.66, 7_333.32, 6_666.68],
      ['2025-02-17', 6_666.68, 666.68, 7_333.36, 0],
    ]);
    expect(s.total_repayment).toBe(22_000);
  });
});

describe('compound-interest: reducing balance, equal instalments P·i / (1 − (1 + i)^−n)', () => {
  it('monthly: 100,000 at 5% a month for 3 months', () => {
    // i = 0.05, n = 3. 1.05³ = 1.157625; 1.05⁻³ = 0.8638376; 1 − 0.8638376 = 0.1361624.
    // A = 100,000 × 0.05 / 0.1361624 = 36,720.856… → 36,720.86.
    // 1: interest 100,000 × 0.05 = 5,000.00; principal 31,720.86; balance 68,279.14
    // 2: interest 68,279.14 × 0.05 = 3,413.957 → 3,413.96; principal 33,306.90; balance 34,972.24
    // 3: interest 34,972.24 × 0.05 = 1,748.612 → 1,748.61; principal 34,972.24; total 36,720.85
    // interest 5,000 + 3,413.96 + 1,748.61 = 10,162.57; repayment 110,162.57.
    const s = buildSchedule({
      principal: 100_000,
      rate: 5,
      tenure: 3,
      tenured_in: 'months',
      rate_type: 'compound-interest',
      frequency: 'monthly',
      start: day('2025-01-01'),
    });
    expect(rows(s)).toEqual([
      ['2025-02-01', 31_720.86, 5_000, 36_720.86, 68_279.14],
      ['2025-03-01', 33_306.9, 3_413.96, 36_720.86, 34_972.24],
      ['2025-04-01', 34_972.24, 1_748.61, 36_720.85, 0],
    ]);
    expect(totals(s)).toEqual({
      total_principal: 100_000,
      total_interest: 10_162.57,
      total_repayment: 110_162.57,
      maturity_date: '2025-04-01',
    });
  });

  it('weekely: 10,000 at 2% a week for 4 weeks', () => {
    // i = 0.02, n = 4. 1.02⁴ = 1.08243216; 1 − 1/1.08243216 = 0.07615457.
    // A = 200 / 0.07615457 = 2,626.2375 → 2,626.24.
    // 1: 200.00 | 2,426.24 | bal 7,573.76
    // 2: 7,573.76 × 0.02 = 151.4752 → 151.48 | 2,474.76 | bal 5,099.00
    // 3: 5,099 × 0.02 = 101.98 | 2,524.26 | bal 2,574.74
    // 4: 2,574.74 × 0.02 = 51.4948 → 51.49 | 2,574.74 | total 2,626.23
    // interest 504.95; repayment 10,504.95.
    const s = buildSchedule({
      principal: 10_000,
      rate: 2,
      tenure: 4,
      tenured_in: 'weeks',
      rate_type: 'compound-interest',
      frequency: 'weekely',
      start: day('2025-01-06'),
    });
    expect(rows(s)).toEqual([
      ['2025-01-13', 2_426.24, 200, 2_626.24, 7_573.76],
      ['2025-01-20', 2_474.76, 151.48, 2_626.24, 5_099],
      ['2025-01-27', 2_524.26, 101.98, 2_626.24, 2_574.74],
      ['2025-02-03', 2_574.74, 51.49, 2_626.23, 0],
    ]);
    expect(s.total_interest).toBe(504.95);
    expect(s.total_repayment).toBe(10_504.95);
  });

  it('daily: 1,000 at 1% a day for 4 days', () => {
    // i = 0.01, n = 4. 1.01⁴ = 1.04060401; 1 − 1/1.04060401 = 0.03901966.
    // A = 10 / 0.03901966 = 256.281 → 256.28.
    // 1: 10.00 | 246.28 | bal 753.72
    // 2: 7.5372 → 7.54 | 248.74 | bal 504.98
    // 3: 5.0498 → 5.05 | 251.23 | bal 253.75
    // 4: 2.5375 → 2.54 | 253.75 | total 256.29
    // interest 25.13; repayment 1,025.13.
    const s = buildSchedule({
      principal: 1_000,
      rate: 1,
      tenure: 4,
      tenured_in: 'days',
      rate_type: 'compound-interest',
      frequency: 'daily',
      start: day('2025-01-06'),
    });
    expect(rows(s)).toEqual([
      ['2025-01-07', 246.28, 10, 256.28, 753.72],
      ['2025-01-08', 248.74, 7.54, 256.28, 504.98],
      ['2025-01-09', 251.23, 5.05, 256.28, 253.75],
      ['2025-01-10', 253.75, 2.54, 256.29, 0],
    ]);
    expect(s.total_repayment).toBe(1_025.13);
  });

  it('bi-weekly with a weekly rate: the rate is converted by compounding', () => {
    // 10,000 at 2% a week for 4 weeks, fortnightly: n = 2, i = 1.02² − 1 = 0.0404.
    // 1.0404² = 1.08243216; A = 10,000 × 0.0404 × 1.08243216 / 0.08243216 = 5,304.9998 → 5,305.00.
    // 1: 10,000 × 0.0404 = 404.00 | 4,901.00 | bal 5,099.00
    // 2: 5,099 × 0.0404 = 205.9996 → 206.00 | 5,099.00 | total 5,305.00
    const s = buildSchedule({
      principal: 10_000,
      rate: 2,
      tenure: 4,
      tenured_in: 'weeks',
      rate_type: 'compound-interest',
      frequency: 'bi-weekly',
      start: day('2025-01-06'),
    });
    expect(rows(s)).toEqual([
      ['2025-01-20', 4_901, 404, 5_305, 5_099],
      ['2025-02-03', 5_099, 206, 5_305, 0],
    ]);
    expect(s.total_repayment).toBe(10_610);
  });

  it('weekely inside months: 12 instalments, i = 1.05^(3/12) − 1, last on maturity', () => {
    // 1 Jan → 1 Apr is 90 days; 12 whole weeks fit (84 days) → n = 12, the 12th on 1 Apr.
    // i = 1.05^(3/12) − 1 = 1.05^0.25 − 1 = 0.0122722344; (1 + i)^12 = 1.05³, so
    // A = 100,000 × 0.0122722344 / (1 − 1.05⁻³) = 1,227.22344 / 0.1361624 = 9,012.94.
    // 1: 100,000 × i = 1,227.22 | 7,785.72 | bal 92,214.28.
    // Growth over the tenure is the monthly loan's, so after weeks 4 and 8 (a month's worth of
    // instalments each) the balance is the monthly schedule's: 68,279.14 and 34,972.24.
    const s = buildSchedule({
      principal: 100_000,
      rate: 5,
      tenure: 3,
      tenured_in: 'months',
      rate_type: 'compound-interest',
      frequency: 'weekely',
      start: day('2025-01-01'),
    });
    expect(s.instalments).toHaveLength(12);
    expect(s.instalments.map((i) => i.due_date)).toEqual([
      '2025-01-08',
      '2025-01-15',
      '2025-01-22',
      '2025-01-29',
      '2025-02-05',
      '2025-02-12',
      '2025-02-19',
      '2025-02-26',
      '2025-03-05',
      '2025-03-12',
      '2025-03-19',
      '2025-04-01',
    ]);
    expect(rows(s)[0]).toEqual(['2025-01-08', 7_785.72, 1_227.22, 9_012.94, 92_214.28]);
    expect(s.instalments.slice(0, 11).every((i) => i.total === 9_012.94)).toBe(true);
    expect(s.instalments[3]?.balance).toBe(68_279.14);
    expect(s.instalments[7]?.balance).toBe(34_972.24);
    expect(s.instalments.at(-1)?.balance).toBe(0);
  });
});

describe('dates', () => {
  const weekly: RepaymentTerms = {
    principal: 10_000,
    rate: 2,
    tenure: 4,
    tenured_in: 'weeks',
    rate_type: 'simple-interest',
    frequency: 'weekely',
    start: day('2025-01-06'),
  };

  it('a grace period shifts every date by its days and adds no interest', () => {
    // Schedule start 6 Jan + 3 days = 9 Jan → 16, 23, 30 Jan, 6 Feb. Interest still 800.
    const s = buildSchedule({ ...weekly, grace_period: 3 });
    expect(s.instalments.map((i) => i.due_date)).toEqual(['2025-01-16', '2025-01-23', '2025-01-30', '2025-02-06']);
    expect(s.total_interest).toBe(800);
    expect(s.maturity_date).toBe('2025-02-06');
  });

  it('a grace period moves the monthly anchor: 31 Jan + 1 day grace → 1 Mar, 1 Apr', () => {
    const s = buildSchedule({
      principal: 1_000,
      rate: 0,
      tenure: 2,
      tenured_in: 'months',
      rate_type: 'simple-interest',
      frequency: 'monthly',
      start: day('2025-01-31'),
      grace_period: 1,
    });
    expect(s.instalments.map((i) => i.due_date)).toEqual(['2025-03-01', '2025-04-01']);
  });

  it('exclude_weekends moves a Saturday or a Sunday due date to the next Monday, interest unchanged', () => {
    // From Saturday 4 Jan: 11 Jan (Sat) → 13 Jan; 18 Jan (Sat) → 20 Jan.
    const fromSaturday = buildSchedule({ ...weekly, tenure: 2, start: day('2025-01-04'), exclude_weekends: true });
    expect(fromSaturday.instalments.map((i) => i.due_date)).toEqual(['2025-01-13', '2025-01-20']);
    // 10,000 × 0.02 × 2 = 400, as without the move.
    expect(fromSaturday.total_interest).toBe(400);
    // From Sunday 5 Jan: 12 Jan (Sun) → 13 Jan.
    const fromSunday = buildSchedule({ ...weekly, tenure: 1, start: day('2025-01-05'), exclude_weekends: true });
    expect(fromSunday.instalments.map((i) => i.due_date)).toEqual(['2025-01-13']);
    expect(fromSunday.maturity_date).toBe('2025-01-13');
    // Without the flag the Sunday stays.
    expect(buildSchedule({ ...weekly, tenure: 1, start: day('2025-01-05') }).maturity_date).toBe('2025-01-12');
  });

  it('exclude_weekends with daily instalments: weekdays only, fewer instalments, same interest', () => {
    // From Friday 3 Jan for 10 days: 4 (Sat) 5 (Sun) → 6; 6, 7, 8, 9, 10; 11 (Sat) 12 (Sun) → 13; 13.
    // Distinct dates: 6, 7, 8, 9, 10, 13 → 6 instalments. Interest 1,000 × 0.01 × 10 = 100.
    // principal 1,000 / 6 = 166.666… → 166.66 × 5 = 833.30, last 166.70; interest 16.66 × 5, last 16.70.
    const s = buildSchedule({
      principal: 1_000,
      rate: 1,
      tenure: 10,
      tenured_in: 'days',
      rate_type: 'simple-interest',
      frequency: 'daily',
      start: day('2025-01-03'),
      exclude_weekends: true,
    });
    expect(s.instalments.map((i) => i.due_date)).toEqual([
      '2025-01-06',
      '2025-01-07',
      '2025-01-08',
      '2025-01-09',
      '2025-01-10',
      '2025-01-13',
    ]);
    expect(s.instalments.map((i) => i.principal)).toEqual([166.66, 166.66, 166.66, 166.66, 166.66, 166.7]);
    expect(s.instalments.map((i) => i.interest)).toEqual([16.66, 16.66, 16.66, 16.66, 16.66, 16.7]);
    expect(s.total_repayment).toBe(1_100);
  });

  it('month end clamps, also in a leap year, and each date counts from the anchor', () => {
    const base = {
      principal: 3_000,
      rate: 0,
      tenured_in: 'months',
      rate_type: 'simple-interest',
      frequency: 'monthly',
    } as const;
    expect(buildSchedule({ ...base, tenure: 1, start: day('2024-01-31') }).maturity_date).toBe('2024-02-29');
    expect(buildSchedule({ ...base, tenure: 3, start: day('2025-01-31') }).instalments.map((i) => i.due_date)).toEqual([
      '2025-02-28',
      '2025-03-31',
      '2025-04-30',
    ]);
  });

  it('a tenure shorter than one period gives one instalment on maturity', () => {
    // 10 days, monthly: no whole month fits → one instalment on 6 Jan + 10 = 16 Jan.
    const s = buildSchedule({ ...weekly, tenure: 10, tenured_in: 'days', frequency: 'monthly' });
    expect(rows(s)).toEqual([['2025-01-16', 10_000, 2_000, 12_000, 0]]); // 10,000 × 2% × 10 = 2,000
    // 5 days, weekely: likewise, on 11 Jan.
    expect(buildSchedule({ ...weekly, tenure: 5, tenured_in: 'days' }).instalments.map((i) => i.due_date)).toEqual([
      '2025-01-11',
    ]);
  });

  it('monthly instalments inside a tenure in days: 60 days from 1 Jan → 1 Feb, then maturity 2 Mar', () => {
    // 1 Jan + 60 days = 2 Mar. 1 Feb ≤ 2 Mar, 1 Mar ≤ 2 Mar, 1 Apr > 2 Mar → 2 whole months; the
    // second instalment falls on maturity (2 Mar) instead of 1 Mar.
    const s = buildSchedule({
      ...weekly,
      tenure: 60,
      tenured_in: 'days',
      frequency: 'monthly',
      start: day('2025-01-01'),
    });
    expect(s.instalments.map((i) => i.due_date)).toEqual(['2025-02-01', '2025-03-02']);
  });

  it('only the UTC date of start counts, and start defaults to today (UTC)', () => {
    const late = buildSchedule({ ...weekly, tenure: 1, start: new Date('2025-01-06T23:59:59.999Z') });
    expect(late.maturity_date).toBe('2025-01-13');
    const offset = buildSchedule({ ...weekly, tenure: 1, start: new Date('2025-01-07T00:30:00+01:00') });
    expect(offset.maturity_date).toBe('2025-01-13'); // that instant is 6 Jan 23:30 UTC

    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-03-10T15:00:00Z'));
    const { start: _start, ...withoutStart } = weekly;
    expect(buildSchedule({ ...withoutStart, tenure: 1 }).maturity_date).toBe('2025-03-17');
  });

  afterEach(() => {
    vi.useRealTimers();
  });
});

describe('zero rate: no interest for any type', () => {
  for (const rate_type of ['simple-interest', 'compound-interest', 'fixed-amount'] as const) {
    it(rate_type, () => {
      // 1,000 / 3 = 333.333… → 333.33, 333.33, 333.34; no interest.
      const s = buildSchedule({
        principal: 1_000,
        rate: 0,
        tenure: 3,
        tenured_in: 'months',
        rate_type,
        frequency: 'monthly',
        start: day('2025-01-01'),
      });
      expect(rows(s)).toEqual([
        ['2025-02-01', 333.33, 0, 333.33, 666.67],
        ['2025-03-01', 333.33, 0, 333.33, 333.34],
        ['2025-04-01', 333.34, 0, 333.34, 0],
      ]);
      expect(s.total_interest).toBe(0);
      expect(s.total_repayment).toBe(1_000);
    });
  }
});

describe('invariants over many terms', () => {
  const kobo = (x: number) => Math.round(x * 100);
  const sum = (values: number[]) => values.reduce((a, b) => a + kobo(b), 0);
  const cases: RepaymentTerms[] = [];
  for (const rate_type of ['simple-interest', 'compound-interest', 'fixed-amount'] as const)
    for (const frequency of ['daily', 'weekely', 'bi-weekly', 'monthly'] as const)
      for (const [tenure, tenured_in] of [
        [1, 'months'],
        [7, 'months'],
        [13, 'weeks'],
        [45, 'days'],
      ] as const)
        for (const exclude_weekends of [false, true])
          cases.push({
            principal: 123_456.78,
            rate: rate_type === 'fixed-amount' ? 9_876.54 : 3.7,
            tenure,
            tenured_in,
            rate_type,
            frequency,
            exclude_weekends,
            grace_period: 5,
            start: day('2024-12-31'),
          });

  it.each(cases)('$rate_type $frequency $tenure $tenured_in weekends-excluded=$exclude_weekends', (terms) => {
    const s = buildSchedule(terms);
    const all = s.instalments;
    const check = (i: Instalment) => [i.principal, i.interest, i.total, i.balance];
    // Every amount is a finite, non-negative number of whole kobo.
    for (const value of all.flatMap(check)) {
      expect(Number.isFinite(value) && value >= 0).toBe(true);
      expect(Math.abs(value * 100 - kobo(value))).toBeLessThan(1e-6);
    }
    // Totals are the sums of the columns; principal sums exactly to the principal.
    expect(sum(all.map((i) => i.principal))).toBe(kobo(s.total_principal));
    expect(kobo(s.total_principal)).toBe(kobo(terms.principal));
    expect(sum(all.map((i) => i.interest))).toBe(kobo(s.total_interest));
    expect(sum(all.map((i) => i.total))).toBe(kobo(s.total_repayment));
    expect(kobo(s.total_repayment)).toBe(kobo(s.total_principal) + kobo(s.total_interest));
    for (const i of all) expect(kobo(i.total)).toBe(kobo(i.principal) + kobo(i.interest));
    // Balance falls by each principal and ends at 0.
    let balance = kobo(terms.principal);
    for (const i of all) {
      balance -= kobo(i.principal);
      expect(kobo(i.balance)).toBe(balance);
    }
    expect(all.at(-1)?.balance).toBe(0);
    // Dates strictly increase, start after the grace period, and maturity is the last one.
    const dates = all.map((i) => i.due_date);
    expect([...dates].sort()).toEqual(dates);
    expect(new Set(dates).size).toBe(dates.length);
    expect(dates[0] && dates[0] > '2025-01-05').toBe(true);
    expect(s.maturity_date).toBe(dates.at(-1));
    if (terms.exclude_weekends) {
      for (const d of dates) expect([0, 6]).not.toContain(day(d).getUTCDay());
    }
    // Interest of the flat types does not depend on the dates.
    // simple: 123,456.78 × 0.037 = 4,567.90086 a unit → × 1 = 4,567.90; × 7 = 31,975.30602 → 31,975.31;
    // × 13 = 59,382.71118 → 59,382.71; × 45 = 205,555.5387 → 205,555.54. fixed: the amount itself.
    const simple: Record<number, number> = { 1: 4_567.9, 7: 31_975.31, 13: 59_382.71, 45: 205_555.54 };
    if (terms.rate_type === 'simple-interest') expect(s.total_interest).toBe(simple[terms.tenure]);
    if (terms.rate_type === 'fixed-amount') expect(s.total_interest).toBe(9_876.54);
    expect(estimatedRepayment(terms)).toBe(s.total_repayment);
  });
});

describe('estimatedRepayment', () => {
  it('is the schedule total', () => {
    const terms: RepaymentTerms = {
      principal: 100_000,
      rate: 5,
      tenure: 3,
      tenured_in: 'months',
      rate_type: 'compound-interest',
      frequency: 'monthly',
      start: day('2025-01-01'),
    };
    expect(estimatedRepayment(terms)).toBe(110_162.57);
    expect(estimatedRepayment({ ...terms, rate_type: 'simple-interest' })).toBe(115_000);
  });

  it('rounds the principal and a fixed amount to the kobo first', () => {
    // 100.005 → 100.01 (half up); fixed 0.1 + 0.2 (0.30000000000000004) → 0.30.
    expect(
      estimatedRepayment({
        principal: 100.005,
        rate: 0.1 + 0.2,
        tenure: 1,
        tenured_in: 'months',
        rate_type: 'fixed-amount',
        frequency: 'monthly',
        start: day('2025-01-01'),
      }),
    ).toBe(100.31);
  });
});

describe('validation', () => {
  const good: RepaymentTerms = {
    principal: 1_000,
    rate: 5,
    tenure: 3,
    tenured_in: 'months',
    rate_type: 'simple-interest',
    frequency: 'monthly',
  };

  it('accepts sound terms', () => {
    expect(validateRepaymentTerms(good)).toEqual([]);
    expect(validateRepaymentTerms({ ...good, grace_period: 0, exclude_weekends: true, start: new Date() })).toEqual([]);
  });

  it('reports every problem at once', () => {
    const problems = validateRepaymentTerms({
      principal: -5,
      rate: Number.NaN,
      tenure: 2.5,
      tenured_in: 'years',
      rate_type: 'amortised',
      frequency: 'weekly',
      grace_period: -1,
      exclude_weekends: 'yes',
      start: new Date('not a date'),
    });
    expect(problems).toEqual([
      'principal: must be at least 0.01',
      'tenured_in: must be one of months, days, weeks',
      'rate_type: must be one of simple-interest, compound-interest, fixed-amount',
      "frequency: must be one of daily, weekely, bi-weekly, monthly (the API spells it 'weekely')",
      'rate: must be a number',
      'tenure: must be a whole number',
      'grace_period: must not be negative',
      'exclude_weekends: must be true or false',
      'start: must be a valid date',
    ]);
  });

  it.each([
    [{ principal: 0 }, 'principal: must be at least 0.01'],
    [{ principal: 0.004 }, 'principal: must be at least 0.01'],
    [{ principal: Number.POSITIVE_INFINITY }, 'principal: must be a number'],
    [{ principal: '1000' }, 'principal: must be a number'],
    [{ rate: -1 }, 'rate: must not be negative'],
    [{ tenure: 0 }, 'tenure: must be at least 1'],
    [{ tenure: 1201 }, 'tenure: must be at most 1200 months (100 years)'],
    [{ tenure: 36_526, tenured_in: 'days' }, 'tenure: must be at most 36525 days (100 years)'],
    [{ grace_period: 1.5 }, 'grace_period: must be a whole number of days'],
    [{ grace_period: 3651 }, 'grace_period: must be at most 3650 days'],
    // 1,000 × 1e15% × 3 = 3e16 currency: past 2^53 kobo.
    [{ rate: 1e15 }, 'rate: gives a repayment too large to compute exactly'],
    // One instalment after 5 days at 1e6% a day: 1,000 × 10,001⁵ ≈ 1e23.
    [
      { rate: 1e6, rate_type: 'compound-interest', tenure: 5, tenured_in: 'days' },
      'rate: gives a repayment too large to compute exactly',
    ],
    // Growth overflows a double (Infinity − Infinity would be NaN): still a clear problem.
    [{ rate: 1e300, rate_type: 'compound-interest' }, 'rate: gives a repayment too large to compute exactly'],
    [{ principal: 1e14 }, 'principal: is too large'],
  ])('%o → %s', (change, message) => {
    expect(validateRepaymentTerms({ ...good, ...change })).toEqual([message]);
  });

  it('accepts a huge rate whose repayment still fits: 1,000 at 1e6% a month over 1,200 monthly instalments', () => {
    // i = 10,000 a month, so A ≈ 1,000 × 10,000 = 1e7 and the total ≈ 1.2e10: exact in kobo.
    const terms = { ...good, rate: 1e6, rate_type: 'compound-interest', tenure: 1200 } as const;
    expect(validateRepaymentTerms(terms)).toEqual([]);
    expect(estimatedRepayment(terms)).toBeGreaterThan(1.2e10 - 1);
  });

  it('rejects non-objects', () => {
    expect(validateRepaymentTerms(null)).toEqual(['terms: must be an object']);
  });

  it('buildSchedule and estimatedRepayment throw RepaymentTermsError with the problems, never NaN', () => {
    const bad = { ...good, tenure: -1 };
    expect(() => buildSchedule(bad)).toThrow(RepaymentTermsError);
    expect(() => estimatedRepayment(bad)).toThrow('invalid repayment terms: tenure: must be at least 1');
    try {
      buildSchedule({ ...good, rate: Number.NaN, tenure: 0 });
    } catch (error) {
      expect((error as RepaymentTermsError).problems).toEqual(['rate: must be a number', 'tenure: must be at least 1']);
    }
    expect.assertions(3);
  });
});

describe('repaymentTermsFromApproval', () => {
  it('maps the approval body of spec 4.19', () => {
    const approval: ApprovalTerms = {
      approved_amount: 50_000,
      rate: 4,
      tenure: 6,
      tenured_in: 'months',
      rate_type: 'compound-interest',
      frequency: 'monthly',
      note: 'ok',
    };
    const start = day('2025-01-01');
    expect(repaymentTermsFromApproval(approval, start)).toEqual({
      principal: 50_000,
      rate: 4,
      tenure: 6,
      tenured_in: 'months',
      rate_type: 'compound-interest',
      frequency: 'monthly',
      grace_period: 0,
      exclude_weekends: false,
      start,
    });
    expect(repaymentTermsFromApproval({ ...approval, grace_period: 7, exclude_weekends: true })).not.toHaveProperty(
      'start',
    );
  });
});

describe('stored terms: the frequency that agrees with the loan (src/repayment/stored.ts)', () => {
  const weekly = {
    approved_amount: 70000,
    rate: 30 / 52,
    tenure: 12,
    tenured_in: 'weeks',
    rate_type: 'compound-interest',
    grace_period: 0,
    exclude_weekends: false,
    estimated_repayment: 72652.69,
  };
  const approvedAt = '2026-03-02T09:30:00.000Z';

  it('finds the one frequency whose schedule repays the estimated repayment', () => {
    expect(storedFrequency(weekly, approvedAt)).toBe('weekely');
  });

  it('lists every one when several do, none when none does; loan schedule ID then refuses naming --frequency', () => {
    const simple = { ...weekly, rate_type: 'simple-interest', estimated_repayment: 74846.15 };
    expect(frequenciesRepaying(simple, approvedAt)).toEqual(['daily', 'weekely', 'bi-weekly', 'monthly']);
    const off = { ...weekly, estimated_repayment: 72652.7 };
    expect(storedFrequency(off, approvedAt)).toEqual([]);
    expect(() => frequencyOfStored(4, off, approvedAt)).toThrow(
      /no repayment frequency gives its estimated repayment of 72,652\.70/,
    );
    try {
      frequencyOfStored(4, off, approvedAt);
    } catch (error) {
      expect((error as UsageError).hint).toContain('--frequency daily|weekly|bi-weekly|monthly');
    }
  });
});

/**
 * Calendar arithmetic for repayment schedules, in UTC and on whole days.
 *
 * A day is held as its day number: whole days since 1970-01-01 (UTC). Day numbers make adding
 * days and comparing dates plain integer arithmetic; only month steps need the calendar.
 */

const DAY_MS = 86_400_000;

/**
 * The last day a schedule may reach: 9999-12-31. Past it a date has no yyyy-mm-dd form (the
 * next day is written `+010000-01-01`), so it could be neither shown nor compared as a date.
 */
export const LAST_DAY = 2_932_896;

/** The UTC calendar day that `date` falls on, as a day number. */
export function dayOf(date: Date): number {
  return Math.floor(date.getTime() / DAY_MS);
}

/** yyyy-mm-dd of a day number. */
export function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/**
 * `months` calendar months after `day`, on the same day of the month, clamped to the last day of
 * a shorter month: 31 January + 1 month = 28 February (29 in a leap year). Always counted from
 * the given day, never chained, so 31 January + 2 months is 31 March, not 28 March.
 */
export function addMonths(day: number, months: number): number {
  const date = new Date(day * DAY_MS);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDayOfTarget = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Math.floor(Date.UTC(year, month, Math.min(date.getUTCDate(), lastDayOfTarget)) / DAY_MS);
}

/** 0 = Sunday … 6 = Saturday. Day 0 (1970-01-01) was a Thursday. */
function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

/** The day itself on Monday to Friday; the following Monday on Saturday or Sunday. */
export function onWeekday(day: number): number {
  const dow = weekday(day);
  if (dow === 6) return day + 2;
  if (dow === 0) return day + 1;
  return day;
}

/**
 * The user list's `start`/`end` (yyyy-mm-dd, inclusive, UTC days) as bounds on a user's creation
 * day, the first ten characters of `created_at` (ISO 8601 text, `2026-03-02T09:30:00.123Z`),
 * compared as text so the index users_org_day serves them. The bounds are the dates' own text, never built through Date
 * (the day after 9999-12-31 would be written `+010000-01-01…`, which sorts before every
 * four-digit year); a missing bound is one every day is on the right side of.
 */
export interface CreatedDays {
  /** Users created on this day or later. */
  firstDay: string;
  /** Users created on this day or earlier. */
  lastDay: string;
}

export function createdDays(start: string | undefined, end: string | undefined): CreatedDays {
  return { firstDay: start ?? '', lastDay: end ?? '~' };
}

/**
 * The user list's `start`/`end` (yyyy-mm-dd, inclusive, UTC days) as bounds on `created_at`, which
 * holds ISO 8601 text (`2026-03-02T09:30:00.123Z`) and is compared as text, so the index serves it.
 *
 * The bounds are built from the dates' own text, never through Date: the day after 9999-12-31
 * is written `+010000-01-01…`, which sorts before every four-digit year and matched nothing.
 * Every timestamp of a day starts `yyyy-mm-ddT` followed by characters below `~` (digits, `:`,
 * `.`, `Z`, `+`, `-`), so `[startT, endT~)` holds exactly the timestamps of those days, for every
 * date the schema accepts (0000-01-01 to 9999-12-31).
 */
export interface CreatedRange {
  /** Timestamps at or after this. */
  from: string;
  /** Timestamps before this. */
  before: string;
}

export function createdRange(start: string | undefined, end: string | undefined): CreatedRange {
  return { from: start ? `${start}T` : '', before: end ? `${end}T~` : '~' };
}

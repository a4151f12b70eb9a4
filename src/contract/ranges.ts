/**
 * The ranges of the API's numbers, written once: the contract's schemas (the sandbox's checks and
 * the CLI's, before sending) and the CLI's flag parsers read them from here. Zod-free, like
 * ./vocabulary.ts, so that a flag parser does not load zod.
 *
 * Every number here is held exactly by a double and printed by JavaScript without an exponent,
 * so what is accepted is stored, and shown, exactly as written.
 */

/** Money (`amount`, `approved_amount`): naira with at most two decimals (kobo). */
export const MONEY_MIN = 0.01;
/** One trillion naira: far above any loan, and kobo stay exact integers in a double up to ~90 trillion. */
export const MONEY_MAX = 1_000_000_000_000;
export const MONEY_PROBLEM = `must be an amount from ${MONEY_MIN} to ${MONEY_MAX} with at most two decimals`;

/** True for a number of naira the API accepts as money. */
export function isMoney(value: unknown): value is number {
  return (
    typeof value === 'number' &&
    value >= MONEY_MIN &&
    value <= MONEY_MAX &&
    // The shortest text that reads back as the value: `0.29`, never `0.28999…`; in this range never
    // an exponent. So this counts the decimals the sender wrote.
    /^\d+(\.\d{1,2})?$/.test(String(value))
  );
}

/**
 * Whole numbers in a body (counts, whole-naira incomes and costs, salary, grace period): 0 to the
 * money ceiling. `number_of_employees`, digits as text, is read against the same range.
 */
export const WHOLE_MAX = MONEY_MAX;
export const WHOLE_PROBLEM = `must be a whole number from 0 to ${WHOLE_MAX}`;

/** True for digits (as text) whose number is within 0…WHOLE_MAX. */
export function isWholeText(value: string): boolean {
  return /^\d+$/.test(value) && Number(value) <= WHOLE_MAX;
}

/**
 * A whole number in a query (`pages`, `limit`, `cursor`): ASCII digits only, so `0x10`, `1e3`,
 * ` 7 ` or `` are refused rather than read as 16, 1000, 7 or 0; at most the largest exact integer.
 * The problem with `text` as the one message, or undefined when it is fine.
 */
export function queryWholeProblem(text: string, min: 0 | 1): string | undefined {
  if (!/^\d+$/.test(text)) return 'must be a whole number written with digits';
  const value = Number(text);
  if (value < min) return 'must be at least 1';
  if (value > Number.MAX_SAFE_INTEGER) return `must be at most ${Number.MAX_SAFE_INTEGER}`;
  return undefined;
}

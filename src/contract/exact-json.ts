/**
 * JSON parsed with a check that every number survived parsing: `1e999` becomes Infinity (which
 * JSON.stringify writes as `null`), and `99999999999999999999` becomes 100000000000000000000.
 * Such a number is refused, named as written, rather than sent or shown as something else: in
 * what the operator gives (`--data`, a bulk NDJSON row) and in the API's replies.
 */

export type ExactJson =
  | { ok: true; value: unknown }
  | {
      ok: false;
      /** `"key": 1e999`, to show the operator what they wrote. */
      number: string;
      /** `1e999` alone: a reply's keys are the server's, and are not echoed. */
      source: string;
    };

/** Throws JSON.parse's SyntaxError for text that is not JSON. */
export function parseExactJson(text: string): ExactJson {
  // A reviver makes JSON.parse several times slower (a bulk run parses every row): only a text
  // that may hold such a number pays for it.
  if (!mayHoldInexactNumber(text)) return { ok: true, value: JSON.parse(text) };
  let inexact: { key: string; source: string } | undefined;
  // `context.source` (the number as written) is there from Node 21; the value stands in before.
  const value = JSON.parse(text, (key, parsed, context?: { source?: string }) => {
    if (inexact === undefined && isInexactNumber(parsed)) inexact = { key, source: context?.source ?? String(parsed) };
    return parsed;
  });
  if (inexact === undefined) return { ok: true, value };
  return { ok: false, number: `"${inexact.key}": ${inexact.source}`, source: inexact.source };
}

/**
 * Sixteen digits in a row, written out: V8 skips through a text for a pattern of fixed length, and
 * not for `\d{16}`, which it tries at every digit. Over a 12 KB reply (a page of 50 users) the two
 * tests below take ~7 µs where `/\d{16}|[\d.][eE][+-]?\d/` took ~46 µs: every reply read in full
 * passes through them (src/http/reply.ts).
 */
const SIXTEEN_DIGITS = new RegExp('\\d'.repeat(16));
/** A number's exponent: `1e999`. */
const EXPONENT = /[\d.][eE][+-]?\d/;

/**
 * The first number in `text` (valid JSON, nested no deeper than the caller allows: JSON.parse
 * with a reviver recurses) that JSON.parse cannot keep, as written; undefined when none. Text
 * without 16 digits in a row or a digit's exponent cannot hold one, and is not parsed again.
 */
export function inexactNumberIn(text: string): string | undefined {
  if (!mayHoldInexactNumber(text)) return undefined;
  const parsed = parseExactJson(text);
  return parsed.ok ? undefined : parsed.source;
}

/**
 * False for a text without 16 digits in a row or a digit followed by an exponent (a JSON number has a
 * digit before its exponent): no number in it can be inexact. It runs on every row and reply of a
 * bulk run and every page read in full; the two tests apart beat one pattern of both alternatives
 * (`/\d(?:\d{15}|[eE][+-]?\d)/`: 0.34 against 0.11 µs a bulk row, 26 against 7 µs a page).
 */
function mayHoldInexactNumber(text: string): boolean {
  return SIXTEEN_DIGITS.test(text) || EXPONENT.test(text);
}

/** What to tell the operator about such a number. */
export const INEXACT_NUMBER_RULE = `numbers must be finite, and whole numbers at most ${Number.MAX_SAFE_INTEGER}`;

function isInexactNumber(value: unknown): boolean {
  return (
    typeof value === 'number' && (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value)))
  );
}

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

/** 16 digits in a row, or a digit's exponent (`1e999`): only a text with one can hold an inexact number. */
const MAY_BE_INEXACT = /\d{16}|[\d.][eE][+-]?\d/;

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

function mayHoldInexactNumber(text: string): boolean {
  return MAY_BE_INEXACT.test(text);
}

/** What to tell the operator about such a number. */
export const INEXACT_NUMBER_RULE = `numbers must be finite, and whole numbers at most ${Number.MAX_SAFE_INTEGER}`;

function isInexactNumber(value: unknown): boolean {
  return (
    typeof value === 'number' && (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value)))
  );
}

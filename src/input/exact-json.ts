/**
 * JSON the operator gives (`--data`, a bulk NDJSON row), parsed with a check that every number
 * survived parsing: `1e999` becomes Infinity (which JSON.stringify sends as `null`), and
 * `99999999999999999999` becomes 100000000000000000000 (sent changed). Such a number is refused,
 * named as written, rather than sent as something else.
 */

export type ExactJson = { ok: true; value: unknown } | { ok: false; number: string };

/** Throws JSON.parse's SyntaxError for text that is not JSON. */
export function parseExactJson(text: string): ExactJson {
  let inexact: string | undefined;
  // `context.source` (the number as written) is there from Node 21; the value stands in before.
  const value = JSON.parse(text, (key, parsed, context?: { source?: string }) => {
    inexact ??= isInexactNumber(parsed) ? `"${key}": ${context?.source ?? parsed}` : undefined;
    return parsed;
  });
  return inexact === undefined ? { ok: true, value } : { ok: false, number: inexact };
}

/** What to tell the operator about such a number. */
export const INEXACT_NUMBER_RULE = `numbers must be finite, and whole numbers at most ${Number.MAX_SAFE_INTEGER}`;

function isInexactNumber(value: unknown): boolean {
  return (
    typeof value === 'number' && (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value)))
  );
}

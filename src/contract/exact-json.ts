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
  const value = JSON.parse(text);
  if (!holdsInexactNumber(value)) return { ok: true, value };
  // Parsed again, with a reviver, only to name the number as written (a reviver makes JSON.parse
  // several times slower, so a text without such a number never pays for it).
  let inexact: { key: string; source: string } | undefined;
  // `context.source` (the number as written) is there from Node 21; the value stands in before.
  JSON.parse(text, (key, parsed, context?: { source?: string }) => {
    if (inexact === undefined && isInexactNumber(parsed)) inexact = { key, source: context?.source ?? String(parsed) };
    return parsed;
  });
  if (inexact === undefined) return { ok: true, value };
  return { ok: false, number: `"${inexact.key}": ${inexact.source}`, source: inexact.source };
}

/**
 * The first number in `text` (valid JSON, nested no deeper than the caller allows: JSON.parse
 * with a reviver recurses) that JSON.parse cannot keep, as written; undefined when none. `parsed`
 * is what JSON.parse made of `text`: its numbers are looked at, and the text is parsed again only
 * when one of them is such a number.
 */
export function inexactNumberIn(text: string, parsed: unknown): string | undefined {
  if (!holdsInexactNumber(parsed)) return undefined;
  const exact = parseExactJson(text);
  return exact.ok ? undefined : exact.source;
}

/** Whether any number in a parsed JSON value is one JSON.parse could not keep (without recursion). */
function holdsInexactNumber(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'number') {
      if (isInexactNumber(value)) return true;
    } else if (typeof value === 'object' && value !== null) {
      // Read in place (for…in, an index), not through Object.values: no array is made per object,
      // and a walk reads every row of every page.
      if (Array.isArray(value)) {
        for (const item of value) if (mayHoldNumber(item)) stack.push(item);
      } else {
        const record = value as Record<string, unknown>;
        for (const key in record) if (mayHoldNumber(record[key])) stack.push(record[key]);
      }
    }
  }
  return false;
}

function mayHoldNumber(value: unknown): boolean {
  return typeof value === 'number' || (typeof value === 'object' && value !== null);
}

/** What to tell the operator about such a number. */
export const INEXACT_NUMBER_RULE = `numbers must be finite, and whole numbers at most ${Number.MAX_SAFE_INTEGER}`;

function isInexactNumber(value: unknown): boolean {
  return (
    typeof value === 'number' && (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value)))
  );
}

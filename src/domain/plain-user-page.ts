/**
 * A page of the user list read from its text, without building its users (issue 24: `user find`
 * reads 20,000 pages at a million borrowers, and shows nothing of almost all of them). It is a
 * recogniser, not a parser: it accepts only the plainest page — the envelope as the spec writes it
 * (`{"status":"success","message":"…","data":[…]}`, JSON whitespace allowed), each user a flat
 * object of strings, whole numbers of at most 15 digits, booleans and nulls, no backslash anywhere
 * — and says how many users it holds and the first one's id. Anything else (an escape, a nested
 * value, another number, another key in the envelope) is not recognised, and the caller reads the
 * page the slower way. In such a text every `"` opens or closes a string, which is what makes a
 * regular expression enough: it accepts only JSON that `JSON.parse` reads as the same envelope
 * (test/unit/user-find-text.test.ts compares the two over generated pages).
 */

/** What a walk needs of a page it shows nothing of. */
export interface PageCount {
  /** Users on the page. */
  size: number;
  /** The first user's id (undefined on an empty page). */
  firstId: number | undefined;
}

const SPACE = '[ \\t\\n\\r]*';
/** A string with no escape and no control character (JSON.parse refuses those raw). */
const STRING = '"[^"\\\\\\u0000-\\u001f]*"';
/** 15 digits at most: every such number is exact (a page with any other number is not recognised). */
const INTEGER = '-?(?:0|[1-9]\\d{0,14})';
const MEMBER = `${STRING}${SPACE}:${SPACE}(?:${STRING}|${INTEGER}|true|false|null)`;
const FLAT_OBJECT = new RegExp(`\\{${SPACE}(?:${MEMBER}${SPACE}(?:,${SPACE}${MEMBER}${SPACE})*)?\\}`, 'y');
const HEAD = new RegExp(
  `^${SPACE}\\{${SPACE}"status"${SPACE}:${SPACE}"success"${SPACE},${SPACE}"message"${SPACE}:${SPACE}${STRING}${SPACE},${SPACE}"data"${SPACE}:${SPACE}\\[${SPACE}`,
);
const COMMA = new RegExp(`${SPACE},${SPACE}`, 'y');
const TAIL = new RegExp(`${SPACE}\\]${SPACE}\\}${SPACE}$`, 'y');
/** In a recognised object a string followed by `:` is a key; its value, when a number, is whole. */
const ID_MEMBER = new RegExp(`"id"${SPACE}:${SPACE}(-?\\d+)?`, 'g');

/** The page's size and first id when `text` is the plainest page of users (above), else undefined. */
export function countPlainUserPage(text: string): PageCount | undefined {
  if (text.includes('\\')) return undefined;
  const head = HEAD.exec(text);
  if (!head) return undefined;
  let at = head[0].length;
  if (matchesAt(TAIL, text, at)) return { size: 0, firstId: undefined };
  let firstId: number | undefined;
  for (let size = 1; ; size++) {
    const start = at;
    if (!matchesAt(FLAT_OBJECT, text, at)) return undefined;
    at = FLAT_OBJECT.lastIndex;
    if (size === 1) {
      firstId = onlyId(text.slice(start, at));
      if (firstId === undefined) return undefined;
    }
    if (matchesAt(COMMA, text, at)) at = COMMA.lastIndex;
    else return matchesAt(TAIL, text, at) ? { size, firstId } : undefined;
  }
}

function matchesAt(pattern: RegExp, text: string, at: number): boolean {
  pattern.lastIndex = at;
  return pattern.test(text);
}

/**
 * The id of a recognised user object, when it has exactly one `id` and it is a number: with two,
 * JSON.parse keeps the last, and such a page is left to it rather than reasoned about here.
 */
function onlyId(object: string): number | undefined {
  let id: string | undefined;
  let ids = 0;
  for (const member of object.matchAll(ID_MEMBER)) {
    ids++;
    id = member[1];
  }
  return ids === 1 && id !== undefined ? Number(id) : undefined;
}

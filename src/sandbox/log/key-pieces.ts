/**
 * Pieces of the caller's credentials, hidden in a text of the request log in time linear in the
 * text and in the credentials, however many words the Authorization header holds: every run of
 * `length` characters of every credential goes into one set, and each window of the text is
 * looked up in it, written plainly or with one layer of the escapes redact.ts knows (JSON
 * `\u0073`, URL `%73`, HTML `&#x73;`). A pattern per credential, built again for each text, cost
 * seconds for a header of a few thousand words.
 */

/** Hides, in any text given to it, each run of `length` or more characters of any of `secrets` (letters in either case). */
export function pieceHider(secrets: readonly string[], length: number): (text: string) => string {
  const runs = new Set<string>();
  const halves = new Set<string>();
  const half = Math.ceil(length / 2);
  for (const secret of secrets) {
    const lower = asciiLower(secret);
    for (let start = 0; start + length <= lower.length; start++) runs.add(lower.slice(start, start + length));
    for (let start = 0; start + half <= lower.length; start += half) halves.add(lower.slice(start, start + half));
  }
  if (runs.size === 0) return (text) => text;
  // Every run holds one of the secrets' pieces of half its length side by side: a text with none
  // of them, written plainly, needs no scan. Worth it only while the pieces are few (a key, not a
  // header of thousands of words).
  const quick = halves.size <= QUICK_PIECES ? [...halves] : undefined;
  return (text) => {
    if (text.length < length) return text;
    if (quick && !ESCAPE_START.test(text)) {
      const lower = asciiLower(text);
      if (!quick.some((piece) => lower.includes(piece))) return text;
    }
    return hideRuns(text, runs, length);
  };
}

const QUICK_PIECES = 32;

const ESCAPE_START = /[\\%&]/;

/** One escape at a position (the forms of redact.ts's `decodeEscapes`). */
const ESCAPE = /\\u([0-9a-fA-F]{4})|\\([/"\\])|%([0-9a-fA-F]{2})|&#[xX]0*([0-9a-fA-F]{1,6});|&#0*([0-9]{1,7});/y;

/**
 * The text with A–Z lowered and nothing else changed, so that positions still match (toLowerCase
 * also lowers other letters, `İ` into two characters). In a text of ASCII alone toLowerCase does
 * exactly that, in one native pass: a page of JSON has a run of capitals in every timestamp, and
 * replacing each run took several times as long.
 */
function asciiLower(text: string): string {
  return NOT_ASCII.test(text) ? text.replace(/[A-Z]+/g, (upper) => upper.toLowerCase()) : text.toLowerCase();
}

const NOT_ASCII = /\P{ASCII}/u;

/** `text` with every span whose decoded characters hold a run replaced by `***` (overlapping spans as one). */
function hideRuns(text: string, runs: ReadonlySet<string>, length: number): string {
  const { decoded, starts, ends } = decodeWithPositions(text);
  const lower = asciiLower(decoded);
  let out = '';
  let kept = 0;
  let from = -1;
  let to = -1;
  for (let at = 0; at + length <= lower.length; at++) {
    if (!runs.has(lower.slice(at, at + length))) continue;
    const start = starts[at] as number;
    const end = ends[at + length - 1] as number;
    if (start <= to) {
      to = Math.max(to, end);
      continue;
    }
    if (from !== -1) {
      out += `${text.slice(kept, from)}***`;
      kept = to;
    }
    from = start;
    to = end;
  }
  if (from === -1) return text;
  return `${out}${text.slice(kept, from)}***${text.slice(to)}`;
}

/** The text with one layer of escapes decoded, and where in `text` each decoded character came from. */
function decodeWithPositions(text: string): { decoded: string; starts: number[]; ends: number[] } {
  let decoded = '';
  const starts: number[] = [];
  const ends: number[] = [];
  for (let at = 0; at < text.length; ) {
    let characters = text[at] as string;
    let next = at + 1;
    if (characters === '\\' || characters === '%' || characters === '&') {
      ESCAPE.lastIndex = at;
      const found = ESCAPE.exec(text);
      if (found) {
        const [whole, json, escaped, percent, hex, decimal] = found;
        const code =
          escaped === undefined
            ? Number.parseInt(json ?? percent ?? hex ?? (decimal as string), decimal === undefined ? 16 : 10)
            : (escaped.codePointAt(0) as number);
        characters = code <= 0x10ffff ? String.fromCodePoint(code) : '';
        next = at + whole.length;
      }
    }
    for (let unit = 0; unit < characters.length; unit++) {
      starts.push(at);
      ends.push(next);
    }
    decoded += characters;
    at = next;
  }
  return { decoded, starts, ends };
}

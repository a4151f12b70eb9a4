/**
 * The API key, hidden in every form a server may echo it in. A server or proxy that repeats the
 * Authorization header back ("invalid key sk_live_…", a debug page, a JSON dump of the request)
 * may write the key:
 * - as it is, or with JSON escapes for any of its characters (`\u0073k_…`, `\/`, `\"`, `\\`);
 * - URL-encoded (`sk%5Flive…`), or as HTML character references (`&#x5f;`, `&#95;`);
 * - in base64 or base64url: of the key itself, of `Bearer <key>`, of `user:<key>` (Basic auth).
 *   The base64 of a text depends on where the key starts in it (its offset modulo 3), so each of
 *   the three alignments is looked for: the characters that encode only bits of the key.
 * The forms mix freely, character by character (a JSON-escaped base64 text is `…\/…`).
 * Letters match in either case: a false match would need a case variant of a long random key.
 */

/** Texts shorter than this are not looked for in base64: a short core would match ordinary text. */
const MIN_BASE64_KEY = 12;

const HIDDEN = '***';

/**
 * Patterns per key, kept for the few keys in use at once (the sandbox's request log hides several
 * credentials of one header in each text: one slot would build them again for every text).
 */
const patterns = new Map<string, { plain: RegExp; pattern?: RegExp }>();
const KEYS_KEPT = 8;

function patternsOf(key: string): { plain: RegExp; pattern?: RegExp } {
  let found = patterns.get(key);
  if (found === undefined) {
    if (patterns.size >= KEYS_KEPT) patterns.delete(patterns.keys().next().value as string);
    found = { plain: new RegExp(formsOf(key).map(escapeForPattern).join('|'), 'i') };
    patterns.set(key, found);
  }
  return found;
}

/** `text` with every form of `key` (see above) replaced by `***`. */
export function redactText(text: string, key: string | undefined): string {
  if (!key || key.length < 4 || text === '' || !mayReveal(text, key)) return text;
  const pattern = patternFor(key);
  pattern.lastIndex = 0;
  return pattern.test(text) ? text.replace(pattern, HIDDEN) : text;
}

/**
 * A quick check that never misses: with every escape of `characterForms` decoded (twice, for a
 * backslash written escaped), a text that holds a form of the key holds the form itself, in some
 * case. Only such a text meets the full pattern, which is large: compiling it takes ~100 ms, most
 * of a command's start-up, and most replies never mention the key. It allocates nothing for a
 * text without escapes (every page of `loan list --all` comes through here).
 */
function mayReveal(text: string, key: string): boolean {
  return holds(text, patternsOf(key).plain);
}

/** The check of `mayReveal` for any test of plain forms: in `text` as written, or decoded. */
function holds(text: string, plain: Pick<RegExp, 'test'>): boolean {
  if (plain.test(text)) return true;
  if (!ESCAPE_START.test(text) || !HAS_ESCAPE.test(text)) return false;
  const once = decodeEscapes(text);
  return plain.test(once) || plain.test(decodeEscapes(once));
}

/** What every escape below begins with: most texts have none, and this is the quickest test. */
const ESCAPE_START = /[\\%&]/;

/** Any escape that `decodeEscapes` reads. */
const HAS_ESCAPE = /\\u[0-9a-f]{4}|\\[/"\\]|%[0-9a-f]{2}|&#/i;

/** The escapes of `characterForms`, each captured by its kind. */
const ESCAPE = /\\u([0-9a-f]{4})|\\([/"\\])|%([0-9a-f]{2})|&#x0*([0-9a-f]+);|&#0*([0-9]+);/gi;

/** `text` with the JSON, URL and HTML escapes of `characterForms` written as their characters. */
export function decodeEscapes(text: string): string {
  if (!ESCAPE_START.test(text)) return text;
  return text.replace(ESCAPE, (_match, json, escaped, percent, hex, decimal) => {
    if (escaped !== undefined) return escaped;
    const code = Number.parseInt(json ?? percent ?? hex ?? decimal, (json ?? percent ?? hex) ? 16 : 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

/** The key, and where it is long enough its base64 cores: what the pattern looks for, in any escape. */
function formsOf(key: string): string[] {
  return [key, ...(key.length >= MIN_BASE64_KEY ? base64Cores(key) : [])];
}

function patternFor(key: string): RegExp {
  const kept = patternsOf(key);
  if (kept.pattern) return kept.pattern;
  const forms = formsOf(key);
  // Longest first: where two forms overlap, the whole of the longer one goes.
  const unique = [...new Set(forms)].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(unique.map((form) => [...form].map(characterForms).join('')).join('|'), 'gi');
  kept.pattern = pattern;
  return pattern;
}

/** The base64 and base64url characters that encode only bits of `key`, at each of the 3 alignments. */
function base64Cores(key: string): string[] {
  const bytes = Buffer.from(key, 'utf8');
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes, Buffer.alloc(3)]).toString('base64');
    const firstBit = offset * 8;
    const endBit = (offset + bytes.length) * 8;
    const first = Math.ceil(firstBit / 6);
    const end = Math.floor(endBit / 6);
    const core = encoded.slice(first, end);
    cores.push(core, core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return cores;
}

/** A pattern for one character written plainly or escaped (JSON, URL, HTML). */
function characterForms(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  const alternatives = [escapeForPattern(character)];
  if (code < 0x10000) alternatives.push(`\\\\u${code.toString(16).padStart(4, '0')}`);
  if (code < 0x80) alternatives.push(`%${code.toString(16).padStart(2, '0')}`);
  alternatives.push(`&#x0*${code.toString(16)};`, `&#0*${code};`);
  if (character === '/' || character === '"' || character === '\\')
    alternatives.push(`\\\\${escapeForPattern(character)}`);
  return `(?:${alternatives.join('|')})`;
}

function escapeForPattern(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/**
 * `text` with every key that begins with `prefix` hidden, though the key itself is not known (the
 * sandbox keeps only digests of its keys, and a request may carry another organisation's): the
 * prefix in any of the forms above, with the letters and digits that follow it, as written or
 * escaped; in base64, the prefix's core with the base64 characters that follow it. A fragment of a
 * key that starts with the prefix goes as well as a whole key.
 */
export function redactPrefixed(text: string, prefix: string): string {
  if (text === '') return text;
  if (prefixed?.prefix !== prefix) prefixed = { prefix, ...prefixedPatterns(prefix) };
  const { plain, pattern } = prefixed;
  return holds(text, plain) ? text.replace(pattern, HIDDEN) : text;
}

let prefixed: { prefix: string; plain: RegExp; pattern: RegExp } | undefined;

/** A letter or digit, written plainly or escaped (JSON, URL, HTML hex, HTML decimal). */
const ALPHANUMERIC = [
  '[0-9a-z]',
  '\\\\u00(?:3[0-9]|[46][1-9a-f]|[57][0-9a])',
  '%(?:3[0-9]|[46][1-9a-f]|[57][0-9a])',
  '&#x0*(?:3[0-9]|[46][1-9a-f]|[57][0-9a]);',
  '&#0*(?:4[89]|5[0-7]|6[5-9]|[78][0-9]|90|9[7-9]|1[01][0-9]|12[0-2]);',
].join('|');

/** A base64 or base64url character, `/` also JSON-escaped. */
const BASE64_CHARACTER = '[0-9a-z+_-]|\\\\?\\/';

function prefixedPatterns(prefix: string) {
  const cores = prefix.length >= 4 ? base64Cores(prefix) : [];
  const written = `${[...prefix].map(characterForms).join('')}(?:${ALPHANUMERIC})+`;
  const encoded = cores.map((core) => `${[...core].map(characterForms).join('')}(?:${BASE64_CHARACTER})*`);
  return {
    // Case-sensitive, unlike the pattern: a quick check, ~4 times as fast over a page of JSON.
    plain: new RegExp([...new Set([prefix, ...cores])].map(escapeForPattern).join('|')),
    pattern: new RegExp([written, ...encoded].join('|'), 'gi'),
  };
}

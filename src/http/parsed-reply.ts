/**
 * What is done to a reply's parsed JSON before anything reads it: its depth is bounded, and every
 * string in it, values and property names, is passed through `clean` (the key's redaction: after
 * parsing, a JSON escape such as `\u0073k_…` is the plain key). Without recursion: V8's
 * JSON.parse copes with `[[[[…` 100,000 deep, but every recursive step after it (rendering,
 * JSON.stringify, validation) would end in "Maximum call stack size exceeded".
 */

/** Nesting deeper than this is refused: the API's replies are about 4 levels deep. */
export const MAX_REPLY_DEPTH = 256;

export type Cleaned = { ok: true; value: unknown; changed: boolean } | { ok: false; depth: number };

/**
 * True when cleaning what JSON.parse made of `text` can change nothing and find nothing too deep,
 * so the walk can be skipped (a bulk run reads thousands of replies). `text` must have been
 * redacted whole already (./reply.ts interpretReply does it first): the key's redaction finds the
 * key in a piece only where it finds it in the whole, and a text without a backslash has no JSON
 * escape, so every string parsed from it, name or value, is a piece of it as written. At most
 * MAX_REPLY_DEPTH opening brackets nest no deeper.
 */
export function nothingToClean(text: string): boolean {
  if (text.includes('\\')) return false;
  // indexOf jumps from bracket to bracket natively: a quarter of the time of a loop over every character.
  let opening = 0;
  for (const bracket of '{[') {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      if (++opening > MAX_REPLY_DEPTH) return false;
    }
  }
  return true;
}

export function cleanParsed(root: unknown, clean: (text: string) => string): Cleaned {
  let changed = false;
  const cleanString = (text: string) => {
    const result = clean(text);
    if (result !== text) changed = true;
    return result;
  };
  if (typeof root === 'string') {
    const value = cleanString(root);
    return { ok: true, value, changed };
  }
  const stack: Array<[object, number]> = [];
  if (typeof root === 'object' && root !== null) stack.push([root, 1]);
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const [container, depth] = entry;
    if (depth > MAX_REPLY_DEPTH) return { ok: false, depth };
    const visit = <Key extends string | number>(holder: Record<Key, unknown>, key: Key) => {
      const value = holder[key];
      if (typeof value === 'string') holder[key] = cleanString(value);
      else if (typeof value === 'object' && value !== null) stack.push([value, depth + 1]);
    };
    if (Array.isArray(container)) {
      for (let index = 0; index < container.length; index++) visit(container, index);
      continue;
    }
    const record = container as Record<string, unknown>;
    for (const name of Object.keys(record)) {
      const key = cleanString(name);
      if (key !== name) {
        record[key] = record[name];
        delete record[name];
      }
      visit(record, key);
    }
  }
  return { ok: true, value: root, changed };
}

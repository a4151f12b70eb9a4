/**
 * No type machinery that needs a cast to work. `as unknown as` and `as never`
 * tell the compiler to believe a type it cannot check; src/ holds at most MAX_CASTS of them (a
 * typed helper, a type guard that checks, or a narrower generic does the rest).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');
const MAX_CASTS = 3;
/** `x as unknown as T` and `x as never`; `\b` keeps prose such as "was never sent" out. */
const CAST = /\bas\s+unknown\s+as\b|\bas\s+never\b/g;

/** Each cast in src/ as `path:line: text`. */
function castsInSource(): string[] {
  const files = readdirSync(SRC, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        [...line.matchAll(CAST)].map(() => `${relative(SRC, file)}:${index + 1}: ${line.trim()}`),
      ),
  );
}

describe('casts', () => {
  it(`src/ has at most ${MAX_CASTS} \`as unknown as\` / \`as never\` casts`, () => {
    const casts = castsInSource();
    expect(casts.length, casts.join('\n')).toBeLessThanOrEqual(MAX_CASTS);
  });

  it('the count sees both casts and not prose', () => {
    expect('a as unknown as B; b as never; it was never sent'.match(CAST)).toEqual(['as unknown as', 'as never']);
  });
});

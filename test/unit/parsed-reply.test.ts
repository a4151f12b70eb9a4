/**
 * src/http/parsed-reply.ts: when a reply's parsed JSON may skip the walk that bounds its depth and
 * cleans its strings. Skipping wrongly would let a reply nested too deep reach the renderer, or a
 * key written with escapes reach the screen.
 */
import { describe, expect, it } from 'vitest';
import { MAX_REPLY_DEPTH, nothingToClean } from '../../src/http/parsed-reply.js';

/** `count` opening brackets, objects and arrays taking turns, closed again: valid JSON. */
function nested(count: number): string {
  let text = '0';
  for (let level = count; level > 0; level--) text = level % 2 ? `{"a":${text}}` : `[${text}]`;
  return text;
}

describe('nothingToClean', () => {
  it('is true for a reply of at most MAX_REPLY_DEPTH opening brackets of either kind, and no backslash', () => {
    expect(nothingToClean('{"status":"success","data":[{"id":1},{"id":2}]}')).toBe(true);
    expect(nothingToClean(nested(MAX_REPLY_DEPTH))).toBe(true);
    expect(nothingToClean('"plain text"')).toBe(true);
  });

  it('is false past MAX_REPLY_DEPTH opening brackets, counting both kinds, or with any backslash', () => {
    expect(nothingToClean(nested(MAX_REPLY_DEPTH + 1))).toBe(false);
    expect(nothingToClean(`[${'{"a":1},'.repeat(MAX_REPLY_DEPTH)}{"a":1}]`)).toBe(false);
    expect(nothingToClean('{"message":"sk\\u005flive"}')).toBe(false);
  });
});

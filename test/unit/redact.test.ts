/**
 * The key's redaction (src/http/redact.ts): every encoding a server may echo the key in is hidden,
 * whatever surrounds it, and text without the key is left exactly as it was.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactText } from '../../src/http/redact.js';

/** A key with the characters that JSON and URLs escape: `/`, `+`, `=`. */
const KEY = 'sk_live_Q7/x+Zr9=Lm2Kp4Tw8Vd';

/** Every character as `\uXXXX`, as some JSON encoders write non-alphanumerics (or everything). */
const jsonEscaped = (text: string) =>
  [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`).join('');
const urlEncodedAll = (text: string) =>
  [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
const base64 = (text: string) => Buffer.from(text).toString('base64');
const base64url = (text: string) => Buffer.from(text).toString('base64url');

const FORMS: [string, string][] = [
  ['plain', KEY],
  ['every character \\u-escaped', jsonEscaped(KEY)],
  ['one character \\u-escaped', `\\u0073${KEY.slice(1)}`],
  ['JSON-escaped slash', KEY.replace('/', '\\/')],
  ['encodeURIComponent', encodeURIComponent(KEY)],
  ['every character %-encoded, upper and lower case', urlEncodedAll(KEY).toUpperCase()],
  ['HTML character references', [...KEY].map((c) => `&#${c.charCodeAt(0)};`).join('')],
  ['base64 of the key', base64(KEY)],
  ['base64 of "Bearer <key>"', base64(`Bearer ${KEY}`)],
  ['base64 of "x:<key>" (Basic auth)', base64(`x:${KEY}`)],
  ['base64url of "Bearer <key>"', base64url(`Bearer ${KEY}`)],
  ['base64 of "Bearer <key>", JSON-escaped', base64(`Bearer ${KEY}`).replaceAll('/', '\\/')],
  ['base64 of "Bearer <key>", URL-encoded', encodeURIComponent(base64(`Bearer ${KEY}`))],
];

describe('redactText', () => {
  it.each(FORMS)('hides the key written %s', (_name, form) => {
    const text = `{"message":"invalid key ${form}, try again"}`;
    const out = redactText(text, KEY);
    expect(out).toContain('***');
    expect(out).not.toContain(form);
    expect(out.startsWith('{"message":"invalid key ')).toBe(true);
  });

  it.each([0, 1, 2, 3, 4, 5])('finds base64 of the key at offset %i of a longer text', (offset) => {
    const encoded = base64(`${'p'.repeat(offset)}${KEY}${'q'.repeat(5)}`);
    const out = redactText(`token=${encoded}`, KEY);
    expect(out).not.toBe(`token=${encoded}`);
    // What is left of the base64 no longer decodes to the key, nor to most of it.
    expect(Buffer.from(out.replace('***', ''), 'base64').toString('latin1')).not.toContain(KEY.slice(4, 20));
  });

  it('leaves text without the key exactly as it was', () => {
    const text = '{"status":"success","message":"ok","data":[{"id":1,"note":"sk_live_other \\u00e9 %2F"}]}';
    expect(redactText(text, KEY)).toBe(text);
  });
});

describe('the quick check before the full pattern', () => {
  /** Each character of `text` in one of the forms the pattern knows, chosen by `pick`. */
  const mixed = (text: string, pick: readonly number[]) =>
    [...text]
      .map((c, i) => {
        const code = c.charCodeAt(0);
        switch ((pick[i % pick.length] ?? 0) % 6) {
          case 1:
            return `\\u${code.toString(16).padStart(4, '0')}`;
          case 2:
            return `%${code.toString(16).padStart(2, '0').toUpperCase()}`;
          case 3:
            return `&#x00${code.toString(16)};`;
          case 4:
            return `&#${code};`;
          case 5:
            return c === '/' ? '\\/' : c.toUpperCase();
          default:
            return c;
        }
      })
      .join('');

  it('misses no mixture of forms, character by character, in the key or its base64', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 40 }),
        fc.constantFrom(KEY, Buffer.from(`Bearer ${KEY}`).toString('base64')),
        fc.string({ maxLength: 20 }),
        (pick, form, around) => {
          const out = redactText(`${around}${mixed(form, pick)}${around}`, KEY);
          expect(out).toContain('***');
        },
      ),
      { numRuns: 300 },
    );
  });
});

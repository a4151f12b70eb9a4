/** `user find`'s matchers: a phone in any form the CLI accepts, and names by their words. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nameMatcher, phoneMatcher } from '../../src/domain/user-find.js';

const WANTED = '08099999999';
const FORMS = ['+2348099999999', '2348099999999', '08099999999'];
const SEPARATORS = [' ', '-', '(', ')', '.', '\t', '\u00a0'];

/** A phone that matches WANTED: one of its forms, separators anywhere. */
const matchingPhone = fc
  .tuple(
    fc.constantFrom(...FORMS),
    fc.array(fc.tuple(fc.nat({ max: 14 }), fc.constantFrom(...SEPARATORS)), { maxLength: 6 }),
  )
  .map(([form, inserts]) => {
    let phone = form;
    for (const [at, separator] of inserts) phone = phone.slice(0, at) + separator + phone.slice(at);
    return phone;
  });

describe('user find matchers', () => {
  it('a phone in any accepted form, separators anywhere, matches', () => {
    const matches = phoneMatcher(WANTED);
    fc.assert(
      fc.property(matchingPhone, (phone) => {
        expect(matches({ id: 2, phone } as never)).toBe(true);
      }),
      { numRuns: 300, seed: 24 },
    );
    expect(matches({ id: 3, phone: '+2348012345678' } as never)).toBe(false);
  });

  it('a borrower with no phone, or one that is not text, is no match', () => {
    const matches = phoneMatcher(WANTED);
    for (const phone of [undefined, null, 8099999999, true]) {
      expect(matches({ id: 1, phone } as never), String(phone)).toBe(false);
    }
    expect(phoneMatcher('12345')({ id: 1 } as never)).toBe(false);
  });

  it('a name matches when every word given is in "first last", in any case', () => {
    const matches = nameMatcher('ada OBI');
    expect(matches({ firstname: 'Ada', lastname: 'Obiora' } as never)).toBe(true);
    expect(matches({ firstname: 'Ada', lastname: 'Eze' } as never)).toBe(false);
  });
});

/**
 * `user find --phone` passes over a page with no match without the client's full reading (issue 24),
 * most pages without even JSON.parse (src/domain/plain-user-page.ts). Each cheap decision is held to
 * the full reading's over generated pages — escapes, unicode, phones written with spaces, dashes or
 * brackets, missing fields, wrong types, nested values, numbers JSON cannot keep, duplicate keys,
 * other envelopes, cut-off text, the API key echoed: a page passed over is one the full reading
 * accepts, with as many users, the same first id, and no match.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countPlainUserPage } from '../../src/domain/plain-user-page.js';
import { nameMatcher, phoneMatcher, skimUnmatched, type UserMatcher } from '../../src/domain/user-find.js';
import { redactText } from '../../src/http/redact.js';
import { interpretReply } from '../../src/http/reply.js';

const KEY = 'sk_test_PROPERTY_KEY_42';
const WANTED = '08099999999';
const FORMS = ['+2348099999999', '2348099999999', '08099999999'];
const SEPARATORS = [' ', '-', '(', ')', '.', '\t', '\u00a0', '\u2028', '\n'];

/** What the walk does with a page when it reads it in full (src/http/client.ts, src/domain/user-find.ts). */
function fullReading(text: string, matches: UserMatcher) {
  let data: unknown;
  try {
    data = interpretReply(200, 'application/json', text, {
      origin: 'http://127.0.0.1:1',
      reading: true,
      baseUrlHint: '',
      authHint: '',
      redact: (part) => redactText(part, KEY),
    }).data;
  } catch (error) {
    return { refused: String(error) };
  }
  if (!Array.isArray(data)) return { notUsers: data };
  const hits = data.filter((user) => matches(user));
  return { size: data.length, firstId: data[0]?.id, hits: hits.length };
}

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

const oddText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    'O"Brien',
    'a\\b',
    'tab\there',
    'line\u2028sep',
    'é',
    '💸',
    '\u0000',
    '{"id":5}',
    'id',
    '"id":7',
    KEY,
  ),
);

const phone = fc.oneof(
  { weight: 2, arbitrary: matchingPhone },
  { weight: 8, arbitrary: fc.stringMatching(/^\+234\d{10}$/) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('+2348099999998', '8099999999', '+23408099999999', '080999999999', `0809${KEY}9999999`),
  },
  { weight: 1, arbitrary: oddText },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constant(null), fc.constant(8099999999), fc.boolean()) },
);

const id = fc.oneof(
  { weight: 12, arbitrary: fc.nat({ max: 10_000_000 }) },
  {
    weight: 1,
    arbitrary: fc.oneof(fc.integer(), fc.double(), fc.constant(2 ** 53 + 2), fc.string(), fc.constant(null)),
  },
);

/** A user list item: the spec's fields, each maybe missing, in any order, sometimes with more. */
const user = fc
  .record(
    {
      id,
      org_id: fc.nat({ max: 100 }),
      firstname: fc.oneof({ weight: 4, arbitrary: fc.constant('Borrower') }, { weight: 1, arbitrary: oddText }),
      lastname: fc.oneof({ weight: 4, arbitrary: fc.constant('Number 1') }, { weight: 1, arbitrary: oddText }),
      email: fc.oneof({ weight: 4, arbitrary: fc.constant('b1@example.com') }, { weight: 1, arbitrary: oddText }),
      phone,
      gender: fc.constantFrom('female', 'male'),
      is_active: fc.boolean(),
      created_at: fc.constant('2026-11-25T19:40:00.000Z'),
      extra: fc.oneof(
        { weight: 6, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constantFrom({ nested: { deeper: [1, 2] } }, [1], 1.5, 1e300) },
      ),
    },
    { requiredKeys: ['id', 'org_id', 'firstname', 'lastname', 'email', 'phone'] },
  )
  .chain((record) => fc.shuffledSubarray(Object.entries(record), { minLength: Object.keys(record).length }))
  .map((entries) => Object.fromEntries(entries));

const usersOrNot = fc.oneof(
  { weight: 8, arbitrary: fc.array(user, { maxLength: 5 }) },
  {
    weight: 1,
    arbitrary: fc.oneof(fc.constant({ users: [] }), fc.constant(null), fc.constant([null]), fc.constant('x')),
  },
);

const envelope = fc.oneof(
  { weight: 6, arbitrary: usersOrNot.map((data) => ({ status: 'success', message: 'Users retrieved', data })) },
  {
    weight: 2,
    arbitrary: fc
      .record(
        {
          status: fc.constantFrom('success', 'error', 'exists', 'no-access', 1),
          message: fc.oneof(fc.string(), fc.constant(7)),
          data: usersOrNot,
          data1: fc.constant(null),
        },
        { requiredKeys: [] },
      )
      .chain((record) => fc.shuffledSubarray(Object.entries(record), { minLength: Object.keys(record).length }))
      .map((entries) => Object.fromEntries(entries)),
  },
);

/** What a server may do to the text beyond JSON.stringify: escape, pad, break, repeat a key. */
const mutation = fc.oneof(
  { weight: 6, arbitrary: fc.constant((text: string) => text) },
  { weight: 1, arbitrary: fc.constant((text: string) => text.replace('9', '\\u0039')) },
  { weight: 1, arbitrary: fc.constant((text: string) => text.replace('{"', '{"phone":"+2348099999999","')) },
  { weight: 1, arbitrary: fc.constant((text: string) => text.replace(/"phone":("[^"]*")/, '"phone":$1,"phone":"x"')) },
  { weight: 1, arbitrary: fc.constant((text: string) => text.replace(/"id":\d+/, '"id":123456789012345678901')) },
  { weight: 1, arbitrary: fc.constant((text: string) => text.replace(/"org_id":\d+/, '"org_id":1e999')) },
  { weight: 1, arbitrary: fc.constant((text: string) => text.replace(/"id":(\d+)/, '"id":$1,"id":$1')) },
  { weight: 1, arbitrary: fc.constant((text: string) => text.replace(/("id":\d+)/, '$1,"id":"7"')) },
  { weight: 1, arbitrary: fc.nat().map((cut) => (text: string) => text.slice(0, cut % (text.length + 1))) },
  { weight: 1, arbitrary: fc.constantFrom(' \n', '\u00a0', '\u2028', 'x').map((end) => (text: string) => text + end) },
);

const page = fc
  .tuple(envelope, fc.constantFrom(undefined, 2), mutation)
  .map(([value, indent, mutate]) => mutate(JSON.stringify(value, null, indent)));

describe('user find --phone: a page passed over is one the full reading would pass over too', () => {
  it('over generated pages, the cheap decision never differs from the full reading (and is often taken)', () => {
    // The name's matcher cannot tell from the text: its pages are read with JSON.parse.
    const matchers: UserMatcher[] = [phoneMatcher(WANTED), nameMatcher('number 1')];
    let fromText = 0;
    let parsed = 0;
    fc.assert(
      fc.property(page, fc.constantFrom(...matchers), (text, matches) => {
        const count = skimUnmatched(matches)(text);
        if (count === undefined) return;
        if (matches.mayBeIn && countPlainUserPage(text)) fromText++;
        else parsed++;
        expect(fullReading(text, matches), text).toEqual({ ...count, hits: 0 });
      }),
      { numRuns: 4000, seed: 24 },
    );
    // Held to something: both ways of passing a page over are taken often.
    expect(fromText).toBeGreaterThan(200);
    expect(parsed).toBeGreaterThan(200);
  });

  it('a page of users with plain values and no match is passed over from its text alone', () => {
    const plainString = fc.stringMatching(/^[A-Za-z0-9 @.+:-]{0,12}$/);
    const plainUser = fc.record({
      id: fc.nat({ max: 10 ** 12 }),
      org_id: fc.nat({ max: 100 }),
      firstname: plainString,
      phone: fc.stringMatching(/^\+234\d{10}$/).filter((phone) => !phone.includes('8099999999')),
      is_active: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(plainUser, { maxLength: 60 }), fc.constantFrom(undefined, 1), (users, indent) => {
        const text = JSON.stringify({ status: 'success', message: 'ok', data: users }, null, indent);
        expect(countPlainUserPage(text)).toEqual({ size: users.length, firstId: users[0]?.id });
        expect(skimUnmatched(phoneMatcher(WANTED))(text)).toEqual({ size: users.length, firstId: users[0]?.id });
      }),
      { numRuns: 300, seed: 24 },
    );
  });

  it('a phone in any accepted form, separators anywhere, matches, and its page is never passed over', () => {
    const matches = phoneMatcher(WANTED);
    fc.assert(
      fc.property(matchingPhone, (phone) => {
        const users = [
          { id: 1, phone: '+2348012345678' },
          { id: 2, phone },
        ];
        const text = JSON.stringify({ status: 'success', message: 'ok', data: users });
        expect(matches(users[1] as never)).toBe(true);
        expect(matches.mayBeIn?.(phone)).toBe(true);
        expect(skimUnmatched(matches)(text)).toBeUndefined();
      }),
      { numRuns: 500, seed: 24 },
    );
  });

  it('a borrower with no phone, or one that is not text, is no match (the walk used to stop on it)', () => {
    const matches = phoneMatcher(WANTED);
    for (const phone of [undefined, null, 8099999999, true]) {
      expect(matches({ id: 1, phone } as never), String(phone)).toBe(false);
    }
    expect(phoneMatcher('12345')({ id: 1 } as never)).toBe(false);
  });
});

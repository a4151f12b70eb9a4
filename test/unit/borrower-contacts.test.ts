/**
 * The borrower columns' answers from the index's text (src/domain/borrower-contacts.ts): each id
 * its own line's e-mail and phone, in an index written in id order or not; an id it lacks, none.
 */
import { describe, expect, it } from 'vitest';
import { indexLine } from '../../src/config/user-index.js';
import { contactsOf } from '../../src/domain/borrower-contacts.js';

const line = (id: number) => indexLine(id, Math.ceil(id / 50), `b${id}@x.example`, `+2348030${id}`, 'Ada', `N${id}`);

describe('contactsOf', () => {
  it('answers every id of an index in id order, and none for an id it lacks', () => {
    const ids = Array.from({ length: 1000 }, (_, at) => 2 * at + 1);
    const contacts = contactsOf(ids.map(line).join(''), ids.length);
    for (const id of ids) expect(contacts.of(id)).toEqual({ email: `b${id}@x.example`, phone: `+2348030${id}` });
    for (const id of [0, 2, 1000, 2001]) expect(contacts.of(id)).toBeUndefined();
  });

  it('answers an index whose lines are out of order', () => {
    const ids = [7, 3, 9, 1, 5];
    const contacts = contactsOf(ids.map(line).join(''), ids.length);
    for (const id of ids) expect(contacts.of(id)?.email).toBe(`b${id}@x.example`);
    expect(contacts.of(4)).toBeUndefined();
  });

  it('an empty index answers nothing', () => {
    expect(contactsOf('', 0).of(1)).toBeUndefined();
  });
});

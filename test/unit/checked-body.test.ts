/**
 * What the client relies on to send a body without checking it again (src/http/prepare.ts): a body
 * built by buildOperationBody is marked for its operation and frozen, and the mark is neither sent
 * nor seen by a comparison; a copy of it, or a body made by hand, is not marked and is checked.
 */
import { describe, expect, it } from 'vitest';
import { rowFields } from '../../src/bulk/fields.js';
import { checkedFor, markChecked } from '../../src/contract/field-schemas.js';
import { buildOperationBody } from '../../src/input/body.js';

const row = {
  firstname: ' Ada ',
  lastname: 'Obi',
  email: 'ada@example.com',
  password: 'Secret123!',
  phone: '08012345678',
  gender: 'female',
};

describe('a checked body', () => {
  it('is marked for its operation, frozen, and sent and compared as its fields only', () => {
    const { body } = buildOperationBody('createUser', rowFields('createUser', row));
    expect(checkedFor(body)).toBe('createUser');
    expect(Object.isFrozen(body)).toBe(true);
    expect(() => Object.assign(body, { email: 'eve@example.com' })).toThrow(TypeError);
    expect(Object.keys(body).sort()).toEqual(Object.keys(row).sort());
    expect(JSON.parse(JSON.stringify(body))).toEqual({ ...row, firstname: 'Ada', phone: '+2348012345678' });
    expect(body).toStrictEqual({ ...body });
  });

  it('a copy, a body made by hand, and what is not a body are not marked', () => {
    const { body } = buildOperationBody('createUser', rowFields('createUser', row));
    expect(checkedFor({ ...body })).toBeUndefined();
    expect(checkedFor(row)).toBeUndefined();
    expect(checkedFor(null)).toBeUndefined();
    expect(checkedFor('createUser')).toBeUndefined();
  });

  it('a body frozen before it is marked stays unmarked, and marking it throws nothing', () => {
    const frozen = Object.freeze({ ...row });
    expect(markChecked('createUser', frozen)).toBe(frozen);
    expect(checkedFor(frozen)).toBeUndefined();
  });
});

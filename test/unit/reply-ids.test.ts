/**
 * The ids in a successful reply (src/http/payload.ts): a field the record table gives kind `id` is
 * a whole number from 1, or the reply is refused in one line (exit 5); an optional id may be 0,
 * the API's zero value for "not set".
 */
import { describe, expect, it } from 'vitest';
import { operation } from '../../src/contract/operations.js';
import { NetworkError } from '../../src/errors.js';
import { requirePayload } from '../../src/http/payload.js';
import type { ApiResult } from '../../src/http/reply.js';

function reply(data: unknown): ApiResult {
  return { status: 'success', message: 'ok', data, data1: null } as unknown as ApiResult;
}

const loan = { id: 7, user_id: 3, org_id: 1, product_id: 2, amount: 5000 };
const check = () => 'loanctl loan show 7';

describe('ids in a reply', () => {
  it.each([
    ['id', -5],
    ['user_id', 0],
    ['id', 1.5],
    ['id', 2 ** 60],
    ['id', '7'],
  ])('refuses a loan request whose %s is %j', (field, value) => {
    const run = () => requirePayload(operation('createLoanRequest'), reply({ ...loan, [field]: value }), check);
    expect(run).toThrow(NetworkError);
    expect(run).toThrow(`${field} ${JSON.stringify(value)} is not an id (a whole number from 1)`);
  });

  it('accepts whole ids from 1, and an optional id of 0 (not set)', () => {
    expect(() => requirePayload(operation('createLoanRequest'), reply(loan), check)).not.toThrow();
    const unapproved = { ...loan, approved_by_id: 0 };
    expect(() => requirePayload(operation('createLoanRequest'), reply(unapproved), check)).not.toThrow();
  });

  it('checks every item of a page, and an empty page may have cursor 0', () => {
    const page = (items: unknown[], cursor: number) => reply({ loan_requests: items, cursor });
    expect(() => requirePayload(operation('listLoanRequests'), page([], 0), check)).not.toThrow();
    expect(() => requirePayload(operation('listLoanRequests'), page([loan, { ...loan, id: -1 }], 7), check)).toThrow(
      'item 2: id -1 is not an id',
    );
  });
});

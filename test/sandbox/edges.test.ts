/**
 * Values at the edges of what the sandbox accepts: each is either stored and shown exactly, or
 * refused with the 400 envelope naming the field and its range (docs/sandbox.md#numbers).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  type Org,
  openSandbox,
  sampleBody,
  seedLoanRequest,
  snapshot,
  type TestSandbox,
  userBody,
} from '../helpers/sandbox.js';

type Json = Record<string, unknown>;

let sandbox: TestSandbox;
let org: Org;
beforeEach(async () => {
  sandbox = await openSandbox();
  org = sandbox.org;
});
afterEach(() => sandbox.close());

describe('user list dates', () => {
  it('compares start and end correctly across the whole range a date may take, 0000-01-01 to 9999-12-31', async () => {
    const stamps = ['0000-01-01T00:00:00.000Z', '2026-03-02T09:30:00.123Z', '9999-12-31T23:59:59.999Z'];
    for (const stamp of stamps) {
      sandbox.setNow(new Date(stamp));
      await call(sandbox.app, 'createUser', { key: org.api_key, body: userBody() });
    }
    const createdBetween = async (query: Record<string, string>) => {
      const reply = await call(sandbox.app, 'listUsers', { key: org.api_key, query });
      expect(reply.json.status).toBe('success');
      return (reply.json.data as Json[]).map((user) => user.created_at);
    };
    // A window lists its users newest first.
    const newestFirst = [...stamps].reverse();
    expect(await createdBetween({ end: '9999-12-31' })).toEqual(newestFirst);
    expect(await createdBetween({ start: '0000-01-01', end: '9999-12-31' })).toEqual(newestFirst);
    expect(await createdBetween({ start: '9999-12-31', end: '9999-12-31' })).toEqual([stamps[2]]);
    expect(await createdBetween({ start: '0000-01-01', end: '0000-01-01' })).toEqual([stamps[0]]);
    expect(await createdBetween({ start: '2026-03-02', end: '9999-12-30' })).toEqual([stamps[1]]);
  });
});

/** A request with the body as raw JSON text, so numbers arrive exactly as written (1e999, 5e-324). */
async function send(method: 'GET' | 'POST', url: string, payload?: string) {
  const reply = await sandbox.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${org.api_key}`, 'content-type': 'application/json' },
    ...(payload !== undefined && { payload }),
  });
  return { http: reply.statusCode, json: JSON.parse(reply.body) as Json, raw: reply.body };
}

const MONEY = 'must be an amount from 0.01 to 1000000000000 with at most two decimals';

describe('money', () => {
  it.each(['1e308', '5e-324', '0.001', '1e999', '1000000000000.01', '0', '-1', '"50000"'])(
    'refuses amount %s with the envelope naming the field and its range, storing nothing',
    async (amount) => {
      const { userId } = await seedLoanRequest(sandbox.app, org);
      const before = snapshot(sandbox.dbPath);
      const reply = await send(
        'POST',
        `/api/v1/user/${userId}/loan_request?product-id=${org.product_id}`,
        `{"amount":${amount},"purpose":"stock"}`,
      );
      expect(reply.http).toBe(400);
      expect(reply.json).toEqual({ status: 'error', message: `Invalid fields: amount (${MONEY})` });
      expect(snapshot(sandbox.dbPath)).toEqual(before);
    },
  );

  it('stores and shows the edges of the range exactly: 0.01, 0.29 and 1000000000000', async () => {
    const { userId } = await seedLoanRequest(sandbox.app, org);
    for (const amount of ['0.01', '0.29', '1000000000000', '1250.50']) {
      const reply = await send(
        'POST',
        `/api/v1/user/${userId}/loan_request?product-id=${org.product_id}`,
        `{"amount":${amount},"purpose":"stock"}`,
      );
      expect(reply.json.status).toBe('success');
      expect(reply.raw).toContain(`"amount":${Number(amount)},`);
    }
  });

  it('refuses an approved amount below a kobo', async () => {
    const { loanRequestId } = await seedLoanRequest(sandbox.app, org);
    const body = { ...(sampleBody('approveLoanRequest', org.org_id) as Json), approved_amount: 0.001 };
    const reply = await call(sandbox.app, 'approveLoanRequest', {
      key: org.api_key,
      params: { id: loanRequestId },
      productId: org.product_id,
      query: { action: 'approve' },
      body,
    });
    expect(reply.http).toBe(400);
    expect(reply.json.message).toBe(`Invalid fields: approved_amount (${MONEY})`);
  });
});

describe('whole numbers and ids', () => {
  const business = () => sampleBody('addBusinessInfo', org.org_id) as Json;
  const addBusiness = async (payload: string) => {
    const { loanRequestId } = await seedLoanRequest(sandbox.app, org);
    return send('POST', `/api/v1/loan_request/${loanRequestId}/business?product-id=${org.product_id}`, payload);
  };

  it('refuses a number_of_employees past the range, and stores the largest one exactly', async () => {
    const refused = await addBusiness(JSON.stringify({ ...business(), number_of_employees: '99999999999999999999' }));
    expect(refused.http).toBe(400);
    expect(refused.json.message).toBe(
      'Invalid fields: number_of_employees (must be a whole number from 0 to 1000000000000 written as text, e.g. "12")',
    );
    const stored = await addBusiness(JSON.stringify({ ...business(), number_of_employees: '1000000000000' }));
    expect((stored.json.data as Json).number_of_employees).toBe(1000000000000);
  });

  it('refuses whole numbers past the range, naming it', async () => {
    const reply = await addBusiness(JSON.stringify({ ...business(), monthly_ads_cost: 1e300 }));
    expect(reply.json.message).toBe(
      'Invalid fields: monthly_ads_cost (must be a whole number from 0 to 1000000000000)',
    );
  });

  it('refuses an org_id of 1e999 (Infinity once parsed) naming the field', async () => {
    const reply = await addBusiness(JSON.stringify(business()).replace(/"org_id":\d+/, '"org_id":1e999'));
    expect(reply.http).toBe(400);
    expect(reply.json.message).toBe('Invalid fields: org_id (must be your organisation id, a whole number)');
  });

  it.each([
    ['cursor=0x10', 'cursor'],
    ['cursor=1e2', 'cursor'],
    ['cursor=%207%20', 'cursor'],
    ['cursor=', 'cursor'],
    ['limit=1e1', 'limit'],
    ['limit=0x10', 'limit'],
  ])('refuses %s: query numbers are digits, never read as hex or exponents', async (query, field) => {
    const reply = await send('GET', `/api/v1/loan_request?product-id=${org.product_id}&direction=ASC&${query}`);
    expect(reply.http).toBe(400);
    expect(reply.json.message).toBe(`Invalid fields: ${field} (must be a whole number written with digits)`);
  });

  it('refuses pages=0x2 and a cursor past the largest exact integer', async () => {
    expect((await send('GET', '/api/v1/user?pages=0x2')).json.message).toBe(
      'Invalid fields: pages (must be a whole number written with digits)',
    );
    const huge = await send(
      'GET',
      `/api/v1/loan_request?product-id=${org.product_id}&direction=ASC&cursor=9007199254740993`,
    );
    expect(huge.json.message).toBe('Invalid fields: cursor (must be at most 9007199254740991)');
  });

  it('answers no-access for a path id of 1e999, like any id that is not a whole number', async () => {
    const reply = await send('GET', `/api/v1/loan_request/1e999/progress?product-id=${org.product_id}`);
    expect(reply.json.status).toBe('no-access');
  });

  it('refuses a product-id given twice, whichever comes first', async () => {
    for (const query of [
      `product-id=${org.product_id}&product-id=999`,
      `product-id=999&product-id=${org.product_id}`,
    ]) {
      const reply = await send('GET', `/api/v1/loan_request?${query}&direction=ASC`);
      expect(reply.http).toBe(400);
      expect(reply.json).toEqual({
        status: 'error',
        message: 'Invalid fields: product-id (must be given once)',
      });
    }
  });
});

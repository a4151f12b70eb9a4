/**
 * Organisations are sealed from each other. With a second organisation's key, every operation of
 * the table on the first one's users, loan requests and products answers no-access (the very same
 * reply as for an id that does not exist) and changes nothing. The matrix comes from ENDPOINTS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointDef, EndpointKey } from '../../src/contract/endpoints.js';
import {
  ALL_ENDPOINTS,
  type CallOptions,
  call,
  type Org,
  openSandbox,
  sampleBody,
  sampleQuery,
  seedLoanRequest,
  snapshot,
  type TestSandbox,
} from '../helpers/sandbox.js';

let sandbox: TestSandbox;
let first: Org;
let second: Org;
let firstSeed: Awaited<ReturnType<typeof seedLoanRequest>>;
let secondSeed: Awaited<ReturnType<typeof seedLoanRequest>>;

const ATTACH = ['addBankDetails', 'addBusinessInfo', 'addEmployment', 'addGuarantor', 'uploadDocument'] as const;

beforeAll(async () => {
  sandbox = await openSandbox();
  first = sandbox.org;
  second = sandbox.addOrg('Second Lender');
  firstSeed = await seedLoanRequest(sandbox.app, first);
  secondSeed = await seedLoanRequest(sandbox.app, second);
  for (const [org, seed] of [
    [first, firstSeed],
    [second, secondSeed],
  ] as const) {
    for (const key of ATTACH) {
      const reply = await call(sandbox.app, key, {
        key: org.api_key,
        params: { id: seed.loanRequestId },
        productId: org.product_id,
        body: sampleBody(key, org.org_id),
      });
      expect(reply.json.status).toBe('success');
    }
  }
});
afterAll(() => sandbox.close());

interface Probe {
  name: string;
  options: CallOptions;
}

/** Every way the second organisation could reach the first one's records through this operation. */
function probes(def: EndpointDef): Probe[] {
  const key = def.key as EndpointKey;
  const base = (ids: { id: number; user_id: number }, productId: number): CallOptions => ({
    key: second.api_key,
    params: ids,
    ...(def.productId && { productId }),
    query: sampleQuery(key),
    body: sampleBody(key, second.org_id),
  });
  const theirs = { id: firstSeed.loanRequestId, user_id: firstSeed.userId };
  const mine = { id: secondSeed.loanRequestId, user_id: secondSeed.userId };
  const list: Probe[] = [];
  if (def.pathParams.length > 0) {
    list.push({ name: 'their record, my product', options: base(theirs, second.product_id) });
    if (def.productId) list.push({ name: 'their record, their product', options: base(theirs, first.product_id) });
  }
  if (def.productId) list.push({ name: 'my record, their product', options: base(mine, first.product_id) });
  return list;
}

const scoped = ALL_ENDPOINTS.filter((def) => def.pathParams.length > 0 || def.productId);

describe('a second organisation', () => {
  it('covers every operation that names a user, loan request or product', () => {
    expect(scoped.map((def) => def.key).sort()).toEqual(
      ALL_ENDPOINTS.map((def) => def.key)
        .filter((key) => !['createUser', 'userExists', 'listUsers'].includes(key))
        .sort(),
    );
  });

  describe.each(scoped.map((def) => [def.key, def] as const))('%s', (_name, def) => {
    it('answers no-access, exactly as for an id that does not exist, and changes nothing', async () => {
      const key = def.key as EndpointKey;
      const notThere = await call(sandbox.app, key, {
        key: second.api_key,
        params: { id: 987_654, user_id: 987_654 },
        ...(def.productId && { productId: 987_654 }),
        query: sampleQuery(key),
        body: sampleBody(key, second.org_id),
      });
      expect(notThere.json.status).toBe('no-access');
      const before = snapshot(sandbox.dbPath);
      for (const probe of probes(def)) {
        const reply = await call(sandbox.app, key, probe.options);
        expect(reply.http, probe.name).toBe(200);
        expect(reply.json, probe.name).toEqual(notThere.json);
      }
      expect(snapshot(sandbox.dbPath)).toEqual(before);
    });
  });

  it("does not see the first one's users in its list, nor by e-mail, and may reuse their e-mail", async () => {
    const before = snapshot(sandbox.dbPath);
    const list = await call(sandbox.app, 'listUsers', { key: second.api_key });
    expect((list.json.data as Array<{ org_id: number; email: string }>).map((user) => user.org_id)).toEqual([
      second.org_id,
    ]);
    const exists = await call(sandbox.app, 'userExists', {
      key: second.api_key,
      query: sampleQuery('userExists', firstSeed.email),
    });
    expect(exists.json.data).toBe(false);
    expect(snapshot(sandbox.dbPath)).toEqual(before);
    const created = await call(sandbox.app, 'createUser', {
      key: second.api_key,
      body: { ...(sampleBody('createUser', 0) as object), email: firstSeed.email },
    });
    expect(created.json.status).toBe('success');
  });

  it("does not see the first one's loan requests in its own product's list", async () => {
    const list = await call(sandbox.app, 'listLoanRequests', {
      key: second.api_key,
      productId: second.product_id,
      query: { direction: 'ASC' },
    });
    const ids = (list.json.data as { loan_requests: Array<{ id: number; org_id: number }> }).loan_requests;
    expect(ids.map((lr) => lr.org_id)).toEqual([second.org_id]);
  });
});

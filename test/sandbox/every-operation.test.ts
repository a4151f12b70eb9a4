/**
 * Rules that hold for every operation of the contract table, checked by looping over ENDPOINTS:
 * authentication, the product-id rule, validation, no-access for unknown ids, the shape of every
 * successful reply, and that every reply (even a framework error) is the envelope.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { EndpointDef, EndpointKey } from '../../src/contract/endpoints.js';
import {
  ALL_ENDPOINTS,
  call,
  loanRequestReadyFor,
  type Org,
  openSandbox,
  replyProblems,
  sampleBody,
  sampleQuery,
  seedLoanRequest,
  snapshot,
  type TestSandbox,
  urlFor,
} from '../helpers/sandbox.js';

let sandbox: TestSandbox;
let app: FastifyInstance;
let org: Org;

beforeAll(async () => {
  sandbox = await openSandbox();
  app = sandbox.app;
  org = sandbox.org;
});
afterAll(() => sandbox.close());

const key = (def: EndpointDef) => def.key as EndpointKey;
const withBody = ALL_ENDPOINTS.filter((def) => def.body !== undefined);
const withProductId = ALL_ENDPOINTS.filter((def) => def.productId);
const withId = ALL_ENDPOINTS.filter((def) => def.pathParams.length > 0);

function requiredFields(schema: z.ZodType): string[] {
  const shape = (schema as unknown as z.ZodObject).shape as Record<string, z.ZodType>;
  return Object.entries(shape)
    .filter(([, field]) => !field.safeParse(undefined).success)
    .map(([name]) => name);
}

/**
 * A full, valid call of the operation on a fresh loan request with bank details (so submit and
 * tokenize work), brought to a stage the operation may start from by the state table's moves.
 */
async function validCall(def: EndpointDef, apiKey = org.api_key) {
  const seeded = await loanRequestReadyFor(app, org, def.key);
  return call(app, key(def), {
    key: apiKey,
    params: { id: seeded.loanRequestId, user_id: seeded.userId },
    productId: org.product_id,
    query: sampleQuery(key(def), seeded.email),
    body: sampleBody(key(def), org.org_id),
  });
}

describe.each(ALL_ENDPOINTS.map((def) => [def.key, def] as const))('%s', (_name, def) => {
  it('succeeds with a reply that fits the contract', async () => {
    const reply = await validCall(def);
    expect(reply.http, reply.raw).toBe(200);
    expect(reply.json.status, reply.raw).toBe('success');
    expect(replyProblems(key(def), reply.json)).toEqual([]);
  });

  it('has reply schemas that accept fields they do not know but refuse a known field of the wrong type', async () => {
    const reply = await validCall(def);
    for (const slot of ['data', 'data1'] as const) {
      const schema = def.reply[slot];
      const payload = reply.json[slot];
      const record = Array.isArray(payload) ? payload[0] : payload;
      if (!schema || record === null || typeof record !== 'object') continue;
      const wrap = (changed: object) => (Array.isArray(payload) ? [changed] : changed);
      expect(schema.safeParse(wrap({ ...record, field_from_the_future: { any: ['shape'] } })).success, slot).toBe(true);
      for (const [name, value] of Object.entries(record)) {
        const parsed = schema.safeParse(wrap({ ...record, [name]: wrongType(value) }));
        expect(parsed.success, `${slot}.${name} given ${JSON.stringify(wrongType(value))}`).toBe(false);
      }
    }
  });

  it('answers 401 without a key, with an unknown key, and with a malformed header, and changes nothing', async () => {
    const before = snapshot(sandbox.dbPath);
    const options = {
      params: { id: 1, user_id: 1 },
      productId: org.product_id,
      query: sampleQuery(key(def)),
      body: sampleBody(key(def), org.org_id),
    };
    const missing = await call(app, key(def), { ...options, key: null });
    expect(missing.http).toBe(401);
    expect(missing.json).toEqual({ status: 'error', message: expect.stringMatching(/API key is missing/) });
    const unknown = await call(app, key(def), { ...options, key: 'sk_sandbox_not-a-real-key' });
    expect(unknown.http).toBe(401);
    expect(unknown.json).toEqual({ status: 'error', message: expect.stringMatching(/API key is invalid/) });
    const malformed = await call(app, key(def), { ...options, key: null, headers: { authorization: org.api_key } });
    expect(malformed.http).toBe(401);
    expect(malformed.json.status).toBe('error');
    expect(snapshot(sandbox.dbPath)).toEqual(before);
  });
});

describe.each(withProductId.map((def) => [def.key, def] as const))('%s without product-id', (_name, def) => {
  it('answers 200, status error, "Product ID is required" (missing or empty), and changes nothing', async () => {
    const seeded = await seedLoanRequest(app, org);
    const before = snapshot(sandbox.dbPath);
    for (const productId of [undefined, '']) {
      const reply = await call(app, key(def), {
        key: org.api_key,
        params: { id: seeded.loanRequestId, user_id: seeded.userId },
        ...(productId !== undefined && { productId }),
        query: sampleQuery(key(def)),
        body: sampleBody(key(def), org.org_id),
      });
      expect(reply.http).toBe(200);
      expect(reply.json).toEqual({ status: 'error', message: 'Product ID is required' });
    }
    expect(snapshot(sandbox.dbPath)).toEqual(before);
  });

  it('answers no-access for a product id that does not exist or is not a number', async () => {
    const seeded = await seedLoanRequest(app, org);
    const replies = [];
    for (const productId of [999_999, 'abc', '-1', '1.5']) {
      replies.push(
        await call(app, key(def), {
          key: org.api_key,
          params: { id: seeded.loanRequestId, user_id: seeded.userId },
          productId,
          query: sampleQuery(key(def)),
          body: sampleBody(key(def), org.org_id),
        }),
      );
    }
    for (const reply of replies) {
      expect(reply.http).toBe(200);
      expect(reply.json.status).toBe('no-access');
      expect(reply.json).toEqual(replies[0]?.json);
    }
  });
});

describe.each(withId.map((def) => [def.key, def] as const))('%s with an id that is not one', (_name, def) => {
  it('answers the same no-access for a missing id, a non-numeric one, and a huge one', async () => {
    const before = snapshot(sandbox.dbPath);
    const replies = [];
    for (const id of ['999999', 'abc', '0', '-3', '12345678901234567890', '1e3', '9'.repeat(500)]) {
      replies.push(
        await call(app, key(def), {
          key: org.api_key,
          params: { id, user_id: id },
          productId: org.product_id,
          query: sampleQuery(key(def)),
          body: sampleBody(key(def), org.org_id),
        }),
      );
    }
    const first = replies[0]?.json;
    expect(first?.status).toBe('no-access');
    expect(first?.message).toMatch(
      /^You do not have access to this (user|loan request)\. Please verify the (user|loan request) id$/,
    );
    for (const reply of replies) {
      expect(reply.http).toBe(200);
      expect(reply.json).toEqual(first);
    }
    expect(snapshot(sandbox.dbPath)).toEqual(before);
  });
});

describe.each(withBody.map((def) => [def.key, def] as const))('%s with a bad body', (_name, def) => {
  const base = () => ({
    key: org.api_key,
    params: { id: 1, user_id: 1 },
    productId: org.product_id,
    query: sampleQuery(key(def)),
  });

  it('answers 400 naming every missing required field', async () => {
    const required = requiredFields(def.body as z.ZodType);
    expect(required.length).toBeGreaterThan(0);
    const reply = await call(app, key(def), { ...base(), body: {} });
    expect(reply.http).toBe(400);
    expect(reply.json.status).toBe('error');
    expect(reply.json).not.toHaveProperty('data');
    expect(reply.json.message).toMatch(/^Invalid fields: /);
    for (const field of required) expect(reply.json.message).toContain(`${field} (is required)`);
  });

  it('answers 400 for a body that is not an object, and for no body at all', async () => {
    for (const body of [[1, 2], 'text', 42]) {
      const reply = await call(app, key(def), {
        ...base(),
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
      expect(reply.http).toBe(400);
      expect(reply.json.message).toBe('Invalid fields: body (must be a JSON object)');
    }
    const none = await call(app, key(def), base());
    expect(none.http).toBe(400);
    expect(none.json.message).toBe('Invalid fields: body (must be a JSON object)');
  });

  it('answers 400 for malformed JSON', async () => {
    const reply = await app.inject({
      method: def.method,
      url: urlFor(def, base()),
      headers: { authorization: `Bearer ${org.api_key}`, 'content-type': 'application/json' },
      payload: '{"amount": 5,',
    });
    expect(reply.statusCode).toBe(400);
    expect(reply.json()).toEqual({
      status: 'error',
      message: expect.stringMatching(/^The request body is not valid JSON/),
    });
  });

  it('answers 413 for a body over 1 MiB', async () => {
    const reply = await app.inject({
      method: def.method,
      url: urlFor(def, base()),
      headers: { authorization: `Bearer ${org.api_key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ purpose: 'x'.repeat(1024 * 1024) }),
    });
    expect(reply.statusCode).toBe(413);
    expect(reply.json()).toEqual({ status: 'error', message: expect.stringMatching(/too large/) });
  });
});

describe('the envelope everywhere', () => {
  it('answers an unknown route or method with a 404 envelope', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/nothing'],
      ['GET', '/'],
      ['POST', '/api/v1/no_such_operation'],
      ['PUT', '/api/v1/user/actions/no_such_action'],
    ] as const) {
      const reply = await app.inject({ method, url, headers: { authorization: `Bearer ${org.api_key}` } });
      expect(reply.statusCode).toBe(404);
      expect(reply.json()).toEqual({ status: 'error', message: `No such operation: ${method} ${url}` });
    }
  });

  it('answers an unsupported content type with a 415 envelope', async () => {
    const reply = await app.inject({
      method: 'POST',
      url: '/api/v1/user',
      headers: { authorization: `Bearer ${org.api_key}`, 'content-type': 'application/xml' },
      payload: '<user/>',
    });
    expect(reply.statusCode).toBe(415);
    expect(reply.json()).toMatchObject({ status: 'error' });
    expect(reply.json()).not.toHaveProperty('data');
  });

  it('accepts an empty JSON body where an operation takes none (curl -X PUT -H "Content-Type: application/json")', async () => {
    const seeded = await seedLoanRequest(app, org);
    await call(app, 'addBankDetails', {
      key: org.api_key,
      params: { id: seeded.loanRequestId },
      productId: org.product_id,
      body: sampleBody('addBankDetails', org.org_id),
    });
    const reply = await app.inject({
      method: 'PUT',
      url: `/api/v1/loan_request/${seeded.loanRequestId}/submit?product-id=${org.product_id}`,
      headers: { authorization: `Bearer ${org.api_key}`, 'content-type': 'application/json' },
      payload: '',
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.json().status).toBe('success');
  });

  it('accepts the Bearer scheme in any case', async () => {
    const reply = await app.inject({
      method: 'GET',
      url: '/api/v1/user',
      headers: { authorization: `bearer ${org.api_key}` },
    });
    expect(reply.statusCode).toBe(200);
  });
});

describe.each(
  withId.filter((def) => def.productId && def.pathParams.includes('id')).map((def) => [def.key, def] as const),
)('%s with a loan request of another product', (_name, def) => {
  it('answers the same no-access as for a loan request that does not exist, and changes nothing', async () => {
    const { createProduct } = await import('../../src/sandbox/admin.js');
    const other = createProduct(sandbox.dataDir, org.org_id, 'Other product');
    const seeded = await seedLoanRequest(app, org);
    const options = (id: number) => ({
      key: org.api_key,
      params: { id },
      productId: other.product_id,
      query: sampleQuery(key(def)),
      body: sampleBody(key(def), org.org_id),
    });
    const before = snapshot(sandbox.dbPath);
    const mismatch = await call(app, key(def), options(seeded.loanRequestId));
    const missing = await call(app, key(def), options(999_999));
    expect(mismatch.json.status).toBe('no-access');
    expect(mismatch.json).toEqual(missing.json);
    expect(snapshot(sandbox.dbPath)).toEqual(before);
  });
});

/** A value of another JSON type than the one given (a string for a number, and so on). */
function wrongType(value: unknown): unknown {
  if (typeof value === 'string') return 12345;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return 'not-the-right-type';
  return 'not-an-object-or-array';
}

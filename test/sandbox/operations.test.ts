/** Each operation's success and each documented (and each decided) error, over app.inject. */
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ZERO_TIMESTAMP } from '../../src/contract/schemas.js';
import { estimatedRepayment } from '../../src/repayment/index.js';
import {
  call,
  FIXED_NOW,
  findUserId,
  type Org,
  openSandbox,
  replyProblems,
  sampleBody,
  seedLoanRequest,
  snapshot,
  type TestSandbox,
  userBody,
} from '../helpers/sandbox.js';

let sandbox: TestSandbox;
let org: Org;

beforeEach(async () => {
  sandbox = await openSandbox();
  org = sandbox.org;
});
afterEach(() => sandbox.close());

const LATER = new Date('2026-03-05T14:00:00.456Z');
// biome-ignore lint/suspicious/noExplicitAny: replies are read loosely in assertions; the schemas are checked elsewhere
type Json = Record<string, any>;

function on(id: number, body?: unknown) {
  return { key: org.api_key, params: { id }, productId: org.product_id, ...(body !== undefined && { body }) };
}

async function lr(id: number): Promise<Json> {
  const list = await call(sandbox.app, 'listLoanRequests', {
    key: org.api_key,
    productId: org.product_id,
    query: { direction: 'ASC', limit: 100 },
  });
  return (list.json.data as Json).loan_requests.find((item: Json) => item.id === id);
}

function sql<T>(query: string, ...params: Array<string | number>): T[] {
  const db = new DatabaseSync(sandbox.dbPath, { readOnly: true });
  try {
    return db.prepare(query).all(...params) as T[];
  } finally {
    db.close();
  }
}

describe('createUser (4.1)', () => {
  it('creates a user: no id, source api, active, a reference, timestamps from the clock; password never returned', async () => {
    const body = userBody();
    const reply = await call(sandbox.app, 'createUser', { key: org.api_key, body });
    expect(reply.http).toBe(200);
    expect(reply.json.status).toBe('success');
    expect(reply.json.data).toEqual({
      firstname: 'Ada',
      lastname: 'Obi',
      email: body.email,
      phone: '+2348012345678',
      gender: 'female',
      // The real service's shape: letters and digits, 13 for a user (`LNNPVUjVigzfA`).
      reference: expect.stringMatching(/^[0-9A-Za-z]{13}$/),
      is_active: true,
      source: 'api',
      created_at: FIXED_NOW.toISOString(),
      updated_at: FIXED_NOW.toISOString(),
    });
    expect('data1' in reply.json).toBe(false);
    expect(reply.raw).not.toContain(body.password);
  });

  it('answers exists, with the existing user in data, for the same e-mail in another case; no new user', async () => {
    const body = userBody({ email: 'Ngozi@Example.com' });
    const first = await call(sandbox.app, 'createUser', { key: org.api_key, body });
    sandbox.setNow(LATER);
    const again = await call(sandbox.app, 'createUser', {
      key: org.api_key,
      body: { ...body, email: 'ngozi@EXAMPLE.COM', firstname: 'Other' },
    });
    expect(again.http).toBe(200);
    expect(again.json.status).toBe('exists');
    expect(again.json.message).toMatch(/already exists/);
    expect(again.json.data).toEqual(first.json.data);
    expect(replyProblems('createUser', again.json)).toEqual([]);
    expect(sql('SELECT id FROM users')).toHaveLength(1);
  });

  it('lets two organisations have the same e-mail', async () => {
    const other = sandbox.addOrg('Second Lender');
    const body = userBody();
    expect((await call(sandbox.app, 'createUser', { key: org.api_key, body })).json.status).toBe('success');
    expect((await call(sandbox.app, 'createUser', { key: other.api_key, body })).json.status).toBe('success');
  });

  it('answers 400 naming every bad field', async () => {
    const reply = await call(sandbox.app, 'createUser', {
      key: org.api_key,
      body: userBody({ email: 'not-an-email', phone: '08012345678', gender: '', firstname: 7, password: undefined }),
    });
    expect(reply.http).toBe(400);
    expect(reply.json).toEqual({
      status: 'error',
      message:
        'Invalid fields: firstname (must be text), email (must be an e-mail address), password (is required), phone (must be a phone number in the +234 form, e.g. +2348012345678), gender (must not be empty)',
    });
    expect(sql('SELECT id FROM users')).toHaveLength(0);
  });
});

describe('userExists (4.2)', () => {
  it('says true for an existing e-mail (any case) and false otherwise', async () => {
    const body = userBody({ email: 'Emeka@example.com' });
    await call(sandbox.app, 'createUser', { key: org.api_key, body });
    const yes = await call(sandbox.app, 'userExists', {
      key: org.api_key,
      query: { email: 'emeka@EXAMPLE.com', action: 'exists' },
    });
    expect(yes.json).toEqual({ status: 'success', message: 'User exists', data: true });
    const no = await call(sandbox.app, 'userExists', {
      key: org.api_key,
      query: { email: 'nobody@example.com', action: 'exists' },
    });
    expect(no.json).toEqual({ status: 'success', message: 'User does not exist', data: false });
  });

  it('answers 400 for a missing e-mail or another action', async () => {
    const reply = await call(sandbox.app, 'userExists', { key: org.api_key, query: { action: 'delete' } });
    expect(reply.http).toBe(400);
    expect(reply.json.message).toBe('Invalid fields: email (is required), action (must be exists)');
  });
});

describe('listUsers (4.3)', () => {
  it('lists 50 a page by id, pages 1-based, then an empty page; items carry id, org_id, is_active', async () => {
    const db = sandbox.app;
    for (let i = 0; i < 53; i++) await call(db, 'createUser', { key: org.api_key, body: userBody() });
    const page1 = await call(db, 'listUsers', { key: org.api_key });
    const page2 = await call(db, 'listUsers', { key: org.api_key, query: { pages: 2 } });
    const page3 = await call(db, 'listUsers', { key: org.api_key, query: { pages: 3 } });
    const ids = (page: typeof page1) => (page.json.data as Json[]).map((user) => user.id);
    expect(ids(page1)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(ids(page2)).toEqual([51, 52, 53]);
    expect(page3.json.data).toEqual([]);
    expect((page1.json.data as Json[])[0]).toEqual({
      id: 1,
      org_id: org.org_id,
      firstname: 'Ada',
      lastname: 'Obi',
      email: expect.any(String),
      phone: '+2348012345678',
      gender: 'female',
      is_active: true,
      created_at: FIXED_NOW.toISOString(),
      updated_at: FIXED_NOW.toISOString(),
    });
    expect(page1.raw).not.toMatch(/password/);
  });

  it('filters by creation date, start and end inclusive (UTC days), newest first', async () => {
    const days = [
      '2026-01-31T23:59:59.999Z',
      '2026-02-01T00:00:00.000Z',
      '2026-02-10T12:00:00.000Z',
      '2026-02-11T00:00:00.000Z',
    ];
    for (const day of days) {
      sandbox.setNow(new Date(day));
      await call(sandbox.app, 'createUser', { key: org.api_key, body: userBody() });
    }
    const reply = await call(sandbox.app, 'listUsers', {
      key: org.api_key,
      query: { start: '2026-02-01', end: '2026-02-10' },
    });
    expect((reply.json.data as Json[]).map((user) => user.created_at)).toEqual([days[2], days[1]]);
    const onlyStart = await call(sandbox.app, 'listUsers', { key: org.api_key, query: { start: '2026-02-11' } });
    expect((onlyStart.json.data as Json[]).map((user) => user.created_at)).toEqual([days[3]]);
  });

  it('answers 400 for bad dates, an end before the start, and a page below 1', async () => {
    const bad = await call(sandbox.app, 'listUsers', {
      key: org.api_key,
      query: { start: '2026-02-30', end: 'yesterday', pages: 0 },
    });
    expect(bad.http).toBe(400);
    expect(bad.json.message).toBe(
      'Invalid fields: start (must be a real calendar date), end (must be a date as yyyy-mm-dd), pages (must be at least 1)',
    );
    const backwards = await call(sandbox.app, 'listUsers', {
      key: org.api_key,
      query: { start: '2026-02-10', end: '2026-02-01' },
    });
    expect(backwards.http).toBe(400);
    expect(backwards.json.message).toBe('Invalid fields: end (must not be before start)');
  });
});

describe('createLoanRequest (4.4)', () => {
  it('creates a loan request in the state of spec section 3', async () => {
    const body = userBody({ firstname: 'Funke', lastname: 'Adeyemi' });
    await call(sandbox.app, 'createUser', { key: org.api_key, body });
    const userId = await findUserId(sandbox.app, org, body.email);
    const reply = await call(sandbox.app, 'createLoanRequest', {
      key: org.api_key,
      params: { user_id: userId },
      productId: org.product_id,
      body: { amount: 125000.5, purpose: 'buy a freezer' },
    });
    expect(reply.http).toBe(200);
    expect(reply.json.status).toBe('success');
    const now = FIXED_NOW.toISOString();
    expect(reply.json.data).toEqual({
      id: 1,
      user_id: userId,
      org_id: org.org_id,
      product_id: org.product_id,
      product_name: 'First Lender Loan',
      product_slug: 'first-lender-loan',
      lender_name: 'First Lender',
      // The real service's shape: letters and digits, 16 for a loan request (`5dnpDwwn3dDwD14i`).
      reference: expect.stringMatching(/^[0-9A-Za-z]{16}$/),
      fullname: 'Funke Adeyemi',
      amount: 125000.5,
      purpose: 'buy a freezer',
      terms: {
        approved_amount: 0,
        rate: 0,
        tenure: 0,
        tenured_in: '',
        rate_type: '',
        grace_period: 0,
        exclude_weekends: false,
        zero_interest: false,
        estimated_repayment: 0,
        note: '',
      },
      status: 'saved',
      active: true,
      lender_status: 'saved',
      user_status: 'saved',
      debit_mandate_next_step: 'setup',
      declined_at: ZERO_TIMESTAMP,
      final_approval_date: ZERO_TIMESTAMP,
      approved_at: ZERO_TIMESTAMP,
      user_accepted_date: ZERO_TIMESTAMP,
      user_declined_date: ZERO_TIMESTAMP,
      archived_date: ZERO_TIMESTAMP,
      unarchived_at: ZERO_TIMESTAMP,
      disbursed_at: ZERO_TIMESTAMP,
      submitted_at: ZERO_TIMESTAMP,
      deleted_at: ZERO_TIMESTAMP,
      created_at: now,
      updated_at: now,
    });
  });

  it('answers Product ID is required (200, status error) without product-id, and creates nothing', async () => {
    const seeded = await seedLoanRequest(sandbox.app, org);
    const reply = await call(sandbox.app, 'createLoanRequest', {
      key: org.api_key,
      params: { user_id: seeded.userId },
      body: { amount: 10, purpose: 'x' },
    });
    expect(reply.http).toBe(200);
    expect(reply.json).toEqual({ status: 'error', message: 'Product ID is required' });
    expect(sql('SELECT id FROM loan_requests')).toHaveLength(1);
  });

  it('answers no-access for a user that does not exist', async () => {
    const reply = await call(sandbox.app, 'createLoanRequest', {
      key: org.api_key,
      params: { user_id: 4242 },
      productId: org.product_id,
      body: { amount: 10, purpose: 'x' },
    });
    expect(reply.http).toBe(200);
    expect(reply.json).toEqual({
      status: 'no-access',
      message: 'You do not have access to this user. Please verify the user id',
    });
  });

  it('answers 400 for an amount that is not a positive number', async () => {
    const seeded = await seedLoanRequest(sandbox.app, org);
    const reply = await call(sandbox.app, 'createLoanRequest', {
      key: org.api_key,
      params: { user_id: seeded.userId },
      productId: org.product_id,
      body: { amount: -5, purpose: '   ' },
    });
    expect(reply.http).toBe(400);
    expect(reply.json.message).toBe(
      'Invalid fields: amount (must be an amount from 0.01 to 1000000000000 with at most two decimals), purpose (must not be empty)',
    );
  });
});

describe('listLoanRequests (4.5)', () => {
  async function seedMany(n: number) {
    const seeded = await seedLoanRequest(sandbox.app, org);
    for (let i = 1; i < n; i++) {
      await call(sandbox.app, 'createLoanRequest', {
        key: org.api_key,
        params: { user_id: seeded.userId },
        productId: org.product_id,
        body: { amount: 1000 + i, purpose: `p${i}` },
      });
    }
  }
  const page = (query: Record<string, string | number>) =>
    call(sandbox.app, 'listLoanRequests', { key: org.api_key, productId: org.product_id, query });
  const ids = (reply: Awaited<ReturnType<typeof page>>) =>
    (reply.json.data as Json).loan_requests.map((x: Json) => x.id);

  it('answers 400 "Direction not specified" for a missing or empty direction', async () => {
    for (const query of [{}, { direction: '' }] as Array<Record<string, string>>) {
      const reply = await page(query);
      expect(reply.http).toBe(400);
      expect(reply.json).toEqual({ status: 'error', message: 'Direction not specified' });
    }
  });

  it('answers 400 for a direction other than ASC or DESC, naming it with any other bad field', async () => {
    const reply = await page({ direction: 'sideways', limit: 'ten' });
    expect(reply.http).toBe(400);
    expect(reply.json.message).toBe(
      'Invalid fields: limit (must be a whole number written with digits), direction (must be ASC or DESC)',
    );
    const zero = await page({ direction: 'ASC', limit: 0, cursor: -1 });
    expect(zero.http).toBe(400);
    expect(zero.json.message).toBe(
      'Invalid fields: cursor (must be a whole number written with digits), limit (must be at least 1)',
    );
  });

  it('pages by id in either direction (any case) with a cursor; the reply cursor is the last id, 0 when empty', async () => {
    await seedMany(5);
    const first = await page({ direction: 'asc', limit: 2 });
    expect(ids(first)).toEqual([1, 2]);
    expect((first.json.data as Json).cursor).toBe(2);
    const second = await page({ direction: 'ASC', limit: 2, cursor: 2 });
    expect(ids(second)).toEqual([3, 4]);
    const last = await page({ direction: 'ASC', limit: 2, cursor: 4 });
    expect(ids(last)).toEqual([5]);
    const empty = await page({ direction: 'ASC', limit: 2, cursor: 5 });
    expect(empty.json.data).toEqual({ loan_requests: [], cursor: 0 });
    const down = await page({ direction: 'desc', limit: 3 });
    expect(ids(down)).toEqual([5, 4, 3]);
    const downNext = await page({ direction: 'DESC', limit: 3, cursor: (down.json.data as Json).cursor });
    expect(ids(downNext)).toEqual([2, 1]);
  });

  it('returns 20 by default and clamps limit to 100', async () => {
    await seedMany(105);
    expect(ids(await page({ direction: 'ASC' }))).toHaveLength(20);
    expect(ids(await page({ direction: 'ASC', limit: 500 }))).toHaveLength(100);
  });

  it("lists only the given product's loan requests, and answers no-access for a product that is not the caller's", async () => {
    await seedMany(2);
    const { createProduct } = await import('../../src/sandbox/admin.js');
    const second = createProduct(sandbox.dataDir, org.org_id, 'Second product');
    const reply = await call(sandbox.app, 'listLoanRequests', {
      key: org.api_key,
      productId: second.product_id,
      query: { direction: 'ASC' },
    });
    expect(reply.json.data).toEqual({ loan_requests: [], cursor: 0 });
    const foreign = await call(sandbox.app, 'listLoanRequests', {
      key: org.api_key,
      productId: 999,
      query: { direction: 'ASC' },
    });
    expect(foreign.json).toEqual({
      status: 'no-access',
      message: 'You do not have access to this product. Please verify the product id',
    });
  });
});

describe('updateLoanRequest (4.6) and deleteLoanRequest (4.7)', () => {
  it('updates the purpose and updated_at', async () => {
    const { loanRequestId } = await seedLoanRequest(sandbox.app, org);
    sandbox.setNow(LATER);
    const reply = await call(sandbox.app, 'updateLoanRequest', on(loanRequestId, { purpose: 'rent' }));
    expect(reply.json.status).toBe('success');
    expect(reply.json.data).toMatchObject({ id: loanRequestId, purpose: 'rent', updated_at: LATER.toISOString() });
    expect((await lr(loanRequestId)).purpose).toBe('rent');
  });

  it('deletes softly: deleted_at is set, the loan request leaves the list, and every operation then answers no-access', async () => {
    const { loanRequestId } = await seedLoanRequest(sandbox.app, org);
    sandbox.setNow(LATER);
    const reply = await call(sandbox.app, 'deleteLoanRequest', on(loanRequestId));
    expect(reply.json).toEqual({ status: 'success', message: 'Loan request deleted successfully', data: null });
    expect(sql<Json>('SELECT deleted_at FROM loan_requests WHERE id = ?', loanRequestId)).toEqual([
      { deleted_at: LATER.toISOString() },
    ]);
    expect(await lr(loanRequestId)).toBeUndefined();
    const before = snapshot(sandbox.dbPath);
    for (const key of [
      'deleteLoanRequest',
      'updateLoanRequest',
      'getProgress',
      'addBankDetails',
      'getBankDetails',
      'submitLoanRequest',
      'tokenizeLinker',
      'approveLoanRequest',
    ] as const) {
      const again = await call(sandbox.app, key, {
        ...on(loanRequestId, sampleBody(key, org.org_id)),
        query: key === 'approveLoanRequest' ? { action: 'approve' } : {},
      });
      expect(again.json.status, key).toBe('no-access');
    }
    expect(snapshot(sandbox.dbPath)).toEqual(before);
  });
});

describe('tokenizeLinker (4.8)', () => {
  it('fails with 500 "Something went wrong. Please try again…" when there are no bank details', async () => {
    const { loanRequestId } = await seedLoanRequest(sandbox.app, org);
    const reply = await call(sandbox.app, 'tokenizeLinker', { key: org.api_key, params: { id: loanRequestId } });
    expect(reply.http).toBe(500);
    expect(reply.json.status).toBe('error');
    expect(reply.json.message).toMatch(/^Something went wrong\. Please try again.+bank details/);
    expect(reply.json).not.toHaveProperty('data');
    expect((await lr(loanRequestId)).linker_tokenized).toBeUndefined();
  });

  it('sets one linker id per bank details record and linker_tokenized; tokenizing again keeps the ids', async () => {
    const { loanRequestId } = await seedLoanRequest(sandbox.app, org);
    await call(sandbox.app, 'addBankDetails', on(loanRequestId, sampleBody('addBankDetails', 0)));
    await call(sandbox.app, 'addBankDetails', on(loanRequestId, { code: '044', account_name: 'Ada Obi' }));
    const reply = await call(sandbox.app, 'tokenizeLinker', { key: org.api_key, params: { id: loanRequestId } });
    expect(reply.http).toBe(200);
    const data = reply.json.data as Json;
    expect(data.linker_tokenized).toBe(true);
    expect(data.linker_ids).toHaveLength(2);
    expect(new Set(data.linker_ids).size).toBe(2);
    const again = await call(sandbox.app, 'tokenizeLinker', { key: org.api_key, params: { id: loanRequestId } });
    expect((again.json.data as Json).linker_ids).toEqual(data.linker_ids);
  });

  it("answers at POST …/tokenize_mono, the real documentation's path, exactly as at tokenize_linker", async () => {
    const { loanRequestId } = await seedLoanRequest(sandbox.app, org);
    const mono = () =>
      sandbox.app.inject({
        method: 'POST',
        url: `/api/v1/loan_request/${loanRequestId}/tokenize_mono`,
        headers: { authorization: `Bearer ${org.api_key}` },
      });
    const before = await mono();
    expect(before.statusCode).toBe(500);
    expect(before.json().message).toMatch(/^Something went wrong\. Please try again.+bank details/);

    await call(sandbox.app, 'addBankDetails', on(loanRequestId, sampleBody('addBankDetails', 0)));
    const reply = await mono();
    expect(reply.statusCode).toBe(200);
    const data = reply.json().data as Json;
    expect(data).toMatchObject({ id: loanRequestId, linker_tokenized: true });
    expect(data.linker_ids).toHaveLength(1);
    const linker = await call(sandbox.app, 'tokenizeLinker', { key: org.api_key, params: { id: loanRequestId } });
    expect((linker.json.data as Json).linker_ids).toEqual(data.linker_ids);
    expect(replyProblems('tokenizeLinker', reply.json())).toEqual([]);
  });
});

describe('supporting information (4.9, 4.11–4.13, 4.15–4.18) and progress (4.10)', () => {
  it('has no progress field on a new loan request, and GET progress answers "new"', async () => {
    const { loanRequestId } = await seedLoanRequest(sandbox.app, org);
    expect('progress' in (await lr(loanRequestId))).toBe(false);
    const reply = await call(sandbox.app, 'getProgress', on(loanRequestId));
    expect(reply.json).toEqual({ status: 'success', message: 'Progress retrieved successfully', data: 'new' });
  });

  it('sets the marker of each piece added, then submitted, then approved; information after submit keeps submitted', async () => {
    const { loanRequestId } = await seedLoanRequest(sandbox.app, org);
    const progress = async () => (await call(sandbox.app, 'getProgress', on(loanRequestId))).json.data;
    const steps = [
      ['addBankDetails', 'bank_details'],
      ['addBusinessInfo', 'business_information'],
      ['addEmployment', 'employment'],
      ['addGuarantor', 'guarantor'],
      ['uploadDocument', 'document'],
    ] as const;
    for (const [key, marker] of steps) {
      await call(sandbox.app, key, on(loanRequestId, sampleBody(key, org.org_id)));
      expect(await progress()).toBe(marker);
      expect((await lr(loanRequestId)).progress).toBe(marker);
    }
    await call(sandbox.app, 'submitLoanRequest', on(loanRequestId));
    expect(await progress()).toBe('submitted');
    await call(sandbox.app, 'addGuarantor', on(loanRequestId, sampleBody('addGuarantor', 0)));
    expect(await progress()).toBe('submitted');
    await call(sandbox.app, 'approveLoanRequest', {
      ...on(loanRequestId, sampleBody('approveLoanRequest', 0)),
      query: { action: 'approve' },
    });
    expect(await progress()).toBe('approved');
    await call(sandbox.app, 'uploadDocument', on(loanRequestId, sampleBody('uploadDocument', 0)));
    expect(await progress()).toBe('approved');
  });

  it('adds bank details: data null, data1 the loan request; lists them', async () => {
    const { loanRequestId, userId } = await seedLoanRequest(sandbox.app, org);
    sandbox.setNow(LATER);
    const reply = await call(
      sandbox.app,
      'addBankDetails',
      on(loanRequestId, { code: '058', account_name: 'Ada Obi' }),
    );
    expect(reply.json.status).toBe('success');
    expect(reply.json.data).toBeNull();
    expect(reply.json.data1).toMatchObject({
      id: loanRequestId,
      progress: 'bank_details',
      updated_at: LATER.toISOString(),
    });
    const list = await call(sandbox.app, 'getBankDetails', on(loanRequestId));
    expect(list.json.data).toEqual([
      {
        id: 1,
        user_id: userId,
        org_id: org.org_id,
        loan_request_id: loanRequestId,
        credit_order_id: loanRequestId,
        code: '058',
        account_number: '',
        account_name: 'Ada Obi',
        bank_name: '',
        is_deleted: false,
        has_custom_fields: false,
        custom_fields: null,
        created_at: LATER.toISOString(),
        updated_at: LATER.toISOString(),
      },
    ]);
  });

  it('adds business information: physical_location becomes a bool, number_of_employees an int, unset fields zero', async () => {
    const { loanRequestId, userId } = await seedLoanRequest(sandbox.app, org);
    // The required fields and two optional ones: the others are left unset.
    const reply = await call(
      sandbox.app,
      'addBusinessInfo',
      on(loanRequestId, {
        name: 'Ada Stores',
        org_id: org.org_id,
        role: 'owner',
        industry: 'retail',
        description: 'groceries',
        registered: true,
        physical_location: '12 Broad Street, Lagos',
        number_of_employees: '12',
      }),
    );
    expect(reply.json.status).toBe('success');
    expect(reply.json.data).toMatchObject({
      id: 1,
      user_id: userId,
      loan_request_id: loanRequestId,
      org_id: org.org_id,
      name: 'Ada Stores',
      registered: true,
      physical_location: true,
      number_of_employees: 12,
      established_on: '',
      monthly_ads_cost: 0,
      has_custom_fields: false,
      custom_fields: [],
    });
    for (const [text, expected] of [
      ['no', false],
      ['', false],
      ['Online only', true],
      ['online', false],
      ['YES', true],
    ] as const) {
      const again = await call(
        sandbox.app,
        'addBusinessInfo',
        on(loanRequestId, { ...(sampleBody('addBusinessInfo', org.org_id) as Json), physical_location: text }),
      );
      expect((again.json.data as Json).physical_location, text).toBe(expected);
      expect((again.json.data as Json).id).toBe(1);
    }
  });

  it('replaces every field of business information added again, as a first add of the new body stores it', async () => {
    const { loanRequestId } = await seedLoanRequest(sandbox.app, org);
    const other = await seedLoanRequest(sandbox.app, org);
    const before = await call(
      sandbox.app,
      'addBusinessInfo',
      on(loanRequestId, sampleBody('addBusinessInfo', org.org_id)),
    );
    // Every field unlike the sample's (`sampleBody`).
    const body = {
      name: 'Bola Foods',
      org_id: org.org_id,
      role: 'manager',
      industry: 'food',
      description: 'a bakery',
      registered: false,
      registration_number: 'RC654321',
      established_on: '2020-04-02',
      physical_location: 'no',
      number_of_locations: 3,
      location_status: 'rented',
      average_monthly_income: 50_000,
      last_twelve_months_income: 600_000,
      primary_payments_collection_method: 'transfer',
      number_of_employees: '4',
      monthly_salary_cost: 9_000,
      annual_rent_cost: 120_000,
      monthly_electricity_cost: 700,
      monthly_ads_cost: 300,
      monthly_marketing_cost: 200,
    };
    const replaced = await call(sandbox.app, 'addBusinessInfo', on(loanRequestId, body));
    const added = await call(sandbox.app, 'addBusinessInfo', on(other.loanRequestId, body));
    const fields = (reply: { json: Json }) => {
      const { id, loan_request_id, user_id, created_at, updated_at, ...rest } = reply.json.data as Json;
      return rest;
    };
    expect(fields(replaced)).toEqual(fields(added));
    for (const name of Object.keys(body).filter((key) => key !== 'org_id')) {
      expect(fields(replaced)[name], name).not.toEqual(fields(before)[name]);
    }
    expect((replaced.json.data as Json).id).toBe((before.json.data as Json).id);
    expect((replaced.json.data as Json).created_at).toBe((before.json.data as Json).created_at);
  });

  it("answers 400 for business information whose org_id is not the caller's, or with employees not a number", async () => {
    const { loanRequestId } = await seedLoanRequest(sandbox.app, org);
    const reply = await call(
      sandbox.app,
      'addBusinessInfo',
      on(loanRequestId, { ...(sampleBody('addBusinessInfo', org.org_id + 1) as Json) }),
    );
    expect(reply.http).toBe(400);
    expect(reply.json.message).toBe(`Invalid fields: org_id (must be your organisation id, ${org.org_id})`);
    const bad = await call(
      sandbox.app,
      'addBusinessInfo',
      on(loanRequestId, { ...(sampleBody('addBusinessInfo', org.org_id) as Json), number_of_employees: 'twelve' }),
    );
    expect(bad.http).toBe(400);
    expect(bad.json.message).toMatch(/^Invalid fields: number_of_employees \(must be a whole number/);
  });

  it('adds guarantors: data all of them (no gender), data1 null; lists them', async () => {
    const { loanRequestId } = await seedLoanRequest(sandbox.app, org);
    await call(
      sandbox.app,
      'addGuarantor',
      on(loanRequestId, { ...sampleBody('addGuarantor', 0), firstname: 'Chidi' }),
    );
    const reply = await call(
      sandbox.app,
      'addGuarantor',
      on(loanRequestId, { ...sampleBody('addGuarantor', 0), firstname: 'Ifeoma', email: 'ife@example.com' }),
    );
    expect(reply.json.status).toBe('success');
    expect(reply.json.data1).toBeNull();
    const guarantors = reply.json.data as Json[];
    expect(guarantors.map((g) => g.firstname)).toEqual(['Chidi', 'Ifeoma']);
    expect(guarantors[0]).not.toHaveProperty('gender');
    expect(guarantors[0]).toMatchObject({ relationship: 'brother', loan_request_id: loanRequestId });
    const list = await call(sandbox.app, 'getGuarantors', on(loanRequestId));
    expect(list.json.data).toEqual(guarantors);
  });

  it('uploads documents: data all of them, data1 null', async () => {
    const { loanRequestId } = await seedLoanRequest(sandbox.app, org);
    const reply = await call(
      sandbox.app,
      'uploadDocument',
      on(loanRequestId, { ...sampleBody('uploadDocument', 0), type: 'passport' }),
    );
    expect(reply.json).toMatchObject({ status: 'success', message: 'Document uploaded successfully', data1: null });
    expect(reply.json.data).toEqual([
      expect.objectContaining({
        loan_request_id: loanRequestId,
        type: 'passport',
        reference: expect.stringMatching(/^[0-9A-Za-z]{16}$/),
        has_custom_fields: false,
        custom_fields: null,
      }),
    ]);
    const before = await call(
      sandbox.app,
      'uploadDocument',
      on(loanRequestId, { type: 'id', title: 't', number: 'n', document_url: 'https://files.example.com/id.jpg' }),
    );
    for (const url of ['nope', 'ftp://files.example.com/id.jpg', 'javascript:alert(1)', 'file:///etc/passwd']) {
      const bad = await call(
        sandbox.app,
        'uploadDocument',
        on(loanRequestId, { type: 'id', title: 't', number: 'n', document_url: url }),
      );
      expect(bad.http, url).toBe(400);
      expect(bad.json.message, url).toBe('Invalid fields: document_url (must be an http or https URL)');
    }
    // Nothing was stored by the rejected uploads.
    const after = await call(
      sandbox.app,
      'uploadDocument',
      on(loanRequestId, { type: 'id', title: 't', number: 'n', document_url: 'http://files.example.com/id2.jpg' }),
    );
    expect((after.json.data as unknown[]).length).toBe((before.json.data as unknown[]).length + 1);
  });

  it('adds employment once; a second answers 500 saying it can only be updated; GET answers null before', async () => {
    const { loanRequestId } = await seedLoanRequest(sandbox.app, org);
    const none = await call(sandbox.app, 'getEmployment', on(loanRequestId));
    expect(none.json).toMatchObject({ status: 'success', data: null });
    const employment = { ...sampleBody('addEmployment', 0), company_name: 'Acme Ltd', salary: 350000 };
    const first = await call(sandbox.app, 'addEmployment', on(loanRequestId, employment));
    expect(first.json.status).toBe('success');
    expect(first.json.data).toMatchObject({ company_name: 'Acme Ltd', salary: 350000, custom_fields: null });
    const before = snapshot(sandbox.dbPath);
    const second = await call(sandbox.app, 'addEmployment', on(loanRequestId, sampleBody('addEmployment', 0)));
    expect(second.http).toBe(500);
    expect(second.json.status).toBe('error');
    expect(second.json.message).toMatch(/already added.*only be updated/);
    expect(snapshot(sandbox.dbPath)).toEqual(before);
    const got = await call(sandbox.app, 'getEmployment', on(loanRequestId));
    expect(got.json.data).toEqual(first.json.data);
  });
});

describe('submitLoanRequest (4.14)', () => {
  it('answers 400 saying what to add when there is no supporting information', async () => {
    const { loanRequestId } = await seedLoanRequest(sandbox.app, org);
    const reply = await call(sandbox.app, 'submitLoanRequest', on(loanRequestId));
    expect(reply.http).toBe(400);
    expect(reply.json.status).toBe('error');
    expect(reply.json.message).toMatch(/no supporting information.*bank details.*document/);
    expect((await lr(loanRequestId)).status).toBe('saved');
  });

  it('submits: user_status submitted, status pending, submitted_at set; data null, data1 the loan request; again is harmless', async () => {
    const { loanRequestId } = await seedLoanRequest(sandbox.app, org);
    await call(sandbox.app, 'uploadDocument', on(loanRequestId, sampleBody('uploadDocument', 0)));
    sandbox.setNow(LATER);
    const reply = await call(sandbox.app, 'submitLoanRequest', on(loanRequestId));
    expect(reply.http).toBe(200);
    expect(reply.json.data).toBeNull();
    expect(reply.json.data1).toMatchObject({
      user_status: 'submitted',
      status: 'pending',
      lender_status: 'saved',
      submitted_at: LATER.toISOString(),
    });
    sandbox.setNow(new Date('2026-04-01T00:00:00.000Z'));
    const again = await call(sandbox.app, 'submitLoanRequest', on(loanRequestId));
    expect(again.json.status).toBe('success');
    expect(again.json.data1).toEqual(reply.json.data1);
  });
});

describe('approveLoanRequest (4.19)', () => {
  const approve = (id: number, body: unknown, action = 'approve') =>
    call(sandbox.app, 'approveLoanRequest', { ...on(id, body), query: { action } });

  it('fills terms with the estimated repayment, lender_status approved, the approval dates and approver', async () => {
    const { loanRequestId } = await seedLoanRequest(sandbox.app, org);
    sandbox.setNow(LATER);
    const terms = {
      rate: 5,
      tenure: 3,
      tenured_in: 'months',
      rate_type: 'simple-interest',
      frequency: 'monthly',
      grace_period: 0,
      exclude_weekends: false,
    } as const;
    const body = { ...sampleBody('approveLoanRequest', 0), ...terms, approved_amount: 40000, note: 'good history' };
    const reply = await approve(loanRequestId, body);
    expect(reply.http).toBe(200);
    expect(reply.json.status).toBe('success');
    const expected = estimatedRepayment({ principal: 40000, ...terms, start: LATER });
    expect(expected).toBe(46000);
    expect(reply.json.data).toMatchObject({
      lender_status: 'approved',
      status: 'saved',
      approved_at: LATER.toISOString(),
      final_approval_date: LATER.toISOString(),
      approved_by: 'First Lender (API)',
      approved_by_id: expect.any(Number),
      progress: 'approved',
      terms: {
        approved_amount: 40000,
        rate: 5,
        tenure: 3,
        tenured_in: 'months',
        rate_type: 'simple-interest',
        grace_period: 0,
        exclude_weekends: false,
        zero_interest: false,
        estimated_repayment: expected,
        note: 'good history',
      },
    });
  });

  it('marks zero_interest when the rate is 0', async () => {
    const { loanRequestId } = await seedLoanRequest(sandbox.app, org);
    const reply = await approve(loanRequestId, {
      ...sampleBody('approveLoanRequest', 0),
      approved_amount: 40000,
      rate: 0,
    });
    expect((reply.json.data as Json).terms).toMatchObject({ zero_interest: true, estimated_repayment: 40000 });
  });

  it('answers 400 for an approved amount above the amount requested, a wrong action, or bad terms; changes nothing', async () => {
    const { loanRequestId } = await seedLoanRequest(sandbox.app, org, { amount: 30000 });
    const before = snapshot(sandbox.dbPath);
    const tooMuch = await approve(loanRequestId, sampleBody('approveLoanRequest', 0));
    expect(tooMuch.http).toBe(400);
    expect(tooMuch.json.message).toBe('Invalid fields: approved_amount (must not exceed the amount requested, 30000)');
    // Not `decline`: the API may gain that action, and this must stay a wrong one.
    const wrongAction = await approve(
      loanRequestId,
      { ...(sampleBody('approveLoanRequest', 0) as Json), approved_amount: 100 },
      'no-such-action',
    );
    expect(wrongAction.http).toBe(400);
    expect(wrongAction.json.message).toBe('Invalid fields: action (must be approve)');
    const bad = await approve(loanRequestId, {
      approved_amount: 100,
      rate: 5,
      tenure: 2,
      tenured_in: 'years',
      rate_type: 'simple-interest',
      frequency: 'weekly',
    });
    expect(bad.http).toBe(400);
    expect(bad.json.message).toBe(
      'Invalid fields: tenured_in (must be one of months, days, weeks), frequency (must be one of daily, weekely, bi-weekly, monthly)',
    );
    const tooLong = await approve(loanRequestId, {
      ...(sampleBody('approveLoanRequest', 0) as Json),
      approved_amount: 100,
      tenure: 5000,
    });
    expect(tooLong.http).toBe(400);
    expect(tooLong.json.message).toMatch(/^Invalid fields: tenure \(must be at most 1200 months/);
    expect(snapshot(sandbox.dbPath)).toEqual(before);
  });
});

describe('timestamps', () => {
  it('writes set timestamps as ISO 8601 with a fractional second', async () => {
    sandbox.setNow(new Date('2026-07-01T00:00:00.000Z'));
    const { loanRequestId } = await seedLoanRequest(sandbox.app, org);
    const record = await lr(loanRequestId);
    expect(record.created_at).toBe('2026-07-01T00:00:00.000Z');
    expect(record.submitted_at).toBe('0001-01-01T00:00:00Z');
  });
});

/**
 * The domain layer (src/domain) against the real sandbox, listening on loopback, through the real
 * client: the paging iterators, finding a user and a loan request, and reading what is attached.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointKey } from '../../src/contract/endpoints.js';
import type { LoanRequest } from '../../src/contract/schemas.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { matchesLoan } from '../../src/domain/loan-filter.js';
import { findLoanRequest, readAttachments, readLoanRequest } from '../../src/domain/loan-requests.js';
import { loanRequestPages, userPages } from '../../src/domain/pages.js';
import { findUserByEmail, userIdOf } from '../../src/domain/users.js';
import { ExitCode, NoAccessError } from '../../src/errors.js';
import type { ApiClient } from '../../src/http/api-client.js';
import { fakeIo } from '../helpers/fake-io.js';
import { call, openSandbox, sampleBody, type TestSandbox, tempDir, userBody } from '../helpers/sandbox.js';
import { json, scriptedServer } from '../helpers/scripted-server.js';

const USERS = 120; // the sandbox's pages hold 50: three pages, the last one short
const LOANS = 25;

let sandbox: TestSandbox;
let deps: Deps;
let api: ApiClient;
const emails: string[] = [];
const userIds: number[] = [];
const loanIds: number[] = [];

beforeAll(async () => {
  sandbox = await openSandbox();
  const { app, org } = sandbox;
  for (let n = 0; n < USERS; n++) {
    const body = userBody({ email: `borrower.${n}@example.com` });
    const created = await call(app, 'createUser', { key: org.api_key, body });
    if (created.json.status !== 'success') throw new Error(created.raw);
    emails.push(body.email);
  }
  for (let page = 1; userIds.length < USERS; page++) {
    const list = await call(app, 'listUsers', { key: org.api_key, query: { pages: page } });
    for (const user of list.json.data as { id: number }[]) userIds.push(user.id);
  }
  for (let n = 0; n < LOANS; n++) {
    const created = await call(app, 'createLoanRequest', {
      key: org.api_key,
      params: { user_id: userIds[n % USERS] as number },
      productId: org.product_id,
      body: { amount: 1000 + n, purpose: `purpose ${n}` },
    });
    loanIds.push((created.json.data as { id: number }).id);
  }
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  deps = createDeps({
    io: fakeIo(),
    env: { LOANCTL_BASE_URL: url, LOANCTL_API_KEY: org.api_key, LOANCTL_CONFIG_DIR: tempDir('loanctl-domain-') },
  });
  api = await deps.api();
});

afterAll(async () => {
  await deps?.dispose();
  await sandbox?.close();
});

/**
 * The listUsers calls made while `work` ran, counted as they are made (so a request sent ahead
 * counts even before the sandbox has it). The calls themselves go through to the real client.
 */
async function userListRequests(
  work: (client: ApiClient) => Promise<unknown>,
  client: ApiClient = api,
): Promise<unknown[]> {
  const calls: unknown[] = [];
  const counting = Object.create(client) as ApiClient;
  counting.call = ((key: string, options: unknown) => {
    if (key === 'listUsers') calls.push(options);
    return (client.call as (key: string, options: unknown) => Promise<unknown>)(key, options);
  }) as ApiClient['call'];
  await work(counting).catch(() => {});
  return calls;
}

describe('userPages', () => {
  it('yields every user of a 120-user organisation exactly once, page by page from 1', async () => {
    const seen: number[] = [];
    const pages: number[] = [];
    for await (const { users, page } of userPages(api)) {
      pages.push(page);
      seen.push(...users.map((user) => user.id));
    }
    expect(pages).toEqual([1, 2, 3]);
    expect(seen).toHaveLength(USERS);
    expect(new Set(seen)).toEqual(new Set(userIds));
  });

  it('with prefetch, the same users; from a later page, only the rest', async () => {
    const seen: number[] = [];
    for await (const { users } of userPages(api, {}, { prefetch: true })) seen.push(...users.map((user) => user.id));
    expect(seen).toEqual(userIds);
    const rest: number[] = [];
    for await (const { users } of userPages(api, {}, { firstPage: 3 })) rest.push(...users.map((user) => user.id));
    expect(rest).toEqual(userIds.slice(100));
  });

  it('leaving early fetches no page that was not needed', async () => {
    const requests = await userListRequests(async (client) => {
      for await (const _page of userPages(client)) break;
    });
    expect(requests).toHaveLength(1);
  });
});

describe('finding a user', () => {
  it('finds by e-mail, whatever its case, without an index: the page of the newest, one question, then the list from page 1', async () => {
    const last = emails[USERS - 1] as string;
    const found = await findUserByEmail(api, ` ${last.toUpperCase()} `);
    expect(found.email).toBe(last);
    expect(found.id).toBe(userIds[USERS - 1]);
    // This sandbox's clock is in the past: nobody was created since yesterday, so the walk finds the oldest.
    const oldest = await userListRequests((client) => findUserByEmail(client, emails[0] as string));
    expect(oldest[0]).toEqual({ query: { start: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), pages: 1 } });
    expect(oldest[1]).toEqual({ query: { pages: 1 } });
    expect(oldest.length).toBeLessThanOrEqual(1 + 8);
  });

  it('an e-mail nobody has is exit 4, naming it, after the page of the newest and one question: does it exist?', async () => {
    let error: unknown;
    const requests = await userListRequests(async (client) => {
      error = await findUserByEmail(client, 'nobody@example.com').catch((caught: unknown) => caught);
    });
    expect(error).toBeInstanceOf(NoAccessError);
    expect((error as NoAccessError).exitCode).toBe(ExitCode.noAccess);
    expect((error as Error).message).toContain('nobody@example.com');
    expect(requests).toHaveLength(1); // user exists answered false: the list is not walked
  });

  it('a reference: an id is taken as given (no request), an e-mail is looked up', async () => {
    const requests = await userListRequests(async (client) => {
      expect(await userIdOf(client, { kind: 'id', id: 987654 })).toBe(987654);
    });
    expect(requests).toHaveLength(0);
    expect(await userIdOf(api, { kind: 'email', email: emails[60] as string })).toBe(userIds[60]);
  });
});

describe('loanRequestPages', () => {
  it('walks every loan request once, in id order either way, from a cursor on', async () => {
    const ascending: number[] = [];
    for await (const { loanRequests } of loanRequestPages(api, sandbox.org.product_id, {
      direction: 'ASC',
      limit: 10,
    })) {
      ascending.push(...loanRequests.map((loan) => loan.id));
    }
    expect(ascending).toEqual(loanIds);

    const descending: number[] = [];
    const walk = loanRequestPages(api, sandbox.org.product_id, { direction: 'DESC', limit: 7 }, { prefetch: true });
    for await (const { loanRequests } of walk) descending.push(...loanRequests.map((loan) => loan.id));
    expect(descending).toEqual([...loanIds].reverse());

    const after: number[] = [];
    const from = loanIds[19] as number;
    const rest = loanRequestPages(api, sandbox.org.product_id, { direction: 'ASC', cursor: from, limit: 4 });
    for await (const { loanRequests } of rest) after.push(...loanRequests.map((loan) => loan.id));
    expect(after).toEqual(loanIds.slice(20));
  });
});

describe('a server that ignores the paging (it would loop forever)', () => {
  it('the walks stop: users at the page that repeats the previous one; loan requests at the cursor that does not move', async () => {
    // Real pages, taken from the sandbox, replayed whatever is asked.
    const users = await api.call('listUsers', { query: { pages: 1 } });
    const loans = await api.call('listLoanRequests', {
      productId: sandbox.org.product_id,
      query: { direction: 'ASC', limit: 5 },
    });
    const server = await scriptedServer();
    const replay = createDeps({
      io: fakeIo(),
      env: { LOANCTL_BASE_URL: server.url, LOANCTL_API_KEY: 'k', LOANCTL_CONFIG_DIR: tempDir('loanctl-domain-') },
    });
    try {
      const client = await replay.api();
      server.script((req, res) => json(res, 200, req.url?.startsWith('/api/v1/user') ? users.rawBody : loans.rawBody));
      const userPagesSeen: number[] = [];
      for await (const { page } of userPages(client, {}, { prefetch: true })) userPagesSeen.push(page);
      expect(userPagesSeen).toEqual([1]);

      const cursors: number[] = [];
      for await (const { cursor } of loanRequestPages(client, 1, { direction: 'ASC', limit: 5 })) cursors.push(cursor);
      expect(cursors).toEqual([loanIds[4]]); // the second, identical page is not yielded again

      // Asked from the very cursor the server keeps giving: its one page is yielded, then the walk stops.
      const fromThere: number[] = [];
      const walk = loanRequestPages(client, 1, { direction: 'ASC', cursor: loanIds[4], limit: 5 });
      for await (const { loanRequests } of walk) fromThere.push(...loanRequests.map((loan) => loan.id));
      expect(fromThere).toEqual(loanIds.slice(0, 5));
    } finally {
      await replay.dispose();
      await server.close();
    }
  });
});

describe('finding a loan request and reading what is attached', () => {
  it('finds one by id; an id not under the product is exit 4', async () => {
    const id = loanIds[7] as number;
    const found = await findLoanRequest(api, sandbox.org.product_id, id);
    expect(found).toMatchObject({ id, amount: 1007, purpose: 'purpose 7' });
    const missing = await findLoanRequest(api, sandbox.org.product_id, 999999).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(NoAccessError);
    expect((missing as Error).message).toContain('No loan request 999999');
    const otherProduct = sandbox.addOrg('Second Lender').product_id;
    const elsewhere = await findLoanRequest(api, otherProduct, id).catch((error: unknown) => error);
    expect(elsewhere).toBeInstanceOf(NoAccessError);
  });

  it('reads back the bank details, guarantors and employment attached, and the progress', async () => {
    const { app, org } = sandbox;
    const id = loanIds[3] as number;
    const attach = async (key: EndpointKey) => {
      const body = sampleBody(key, org.org_id) as Record<string, unknown>;
      const reply = await call(app, key, { key: org.api_key, params: { id }, productId: org.product_id, body });
      if (reply.json.status !== 'success') throw new Error(reply.raw);
      return body;
    };
    const bare = await readLoanRequest(api, org.product_id, id);
    expect(bare.view).toMatchObject({ bank_details: [], guarantors: [], employment: null });

    const bank = await attach('addBankDetails');
    const guarantor = await attach('addGuarantor');
    await attach('addGuarantor');
    const employment = await attach('addEmployment');
    const { view, envelopes } = await readLoanRequest(api, org.product_id, id);
    expect(view.loan_request.id).toBe(id);
    expect(view.bank_details).toMatchObject([{ account_number: bank.account_number, bank_name: bank.bank_name }]);
    expect(view.guarantors).toHaveLength(2);
    expect(view.guarantors[0]).toMatchObject({ firstname: guarantor.firstname, relationship: guarantor.relationship });
    expect(view.employment).toMatchObject({ company_name: employment.company_name, position: employment.position });
    expect(typeof view.progress).toBe('string');
    expect(Object.keys(envelopes).sort()).toEqual([
      'bank_details',
      'employment',
      'guarantors',
      'loan_request',
      'progress',
    ]);
    expect(envelopes.guarantors).toMatchObject({ status: 'success' });

    const attachments = await readAttachments(api, org.product_id, id);
    expect(attachments.guarantors.data).toEqual(view.guarantors);
    expect(attachments.bankDetails.data).toEqual(view.bank_details);
    expect(attachments.employment.data).toEqual(view.employment);
  });

  it('reading a loan request that is not there is exit 4 (the look-up speaks first)', async () => {
    const error = await readLoanRequest(api, sandbox.org.product_id, 999999).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NoAccessError);
    expect((error as NoAccessError).exitCode).toBe(ExitCode.noAccess);
  });
});

describe('matching a loan request against date windows', () => {
  const window = { until: Date.parse('2026-03-01T00:00:00Z') };
  const loan = (submitted_at: string) => ({ submitted_at }) as unknown as LoanRequest;

  it('the zero timestamp in any precision is "never submitted": it matches no window', () => {
    expect(matchesLoan({ submitted: window }, loan('0001-01-01T00:00:00Z'))).toBe(false);
    expect(matchesLoan({ submitted: window }, loan('0001-01-01T00:00:00.000000000Z'))).toBe(false);
  });

  it("reads the real service's nanoseconds and numeric offsets", () => {
    expect(matchesLoan({ submitted: window }, loan('2026-02-28T23:59:59.999999999+00:00'))).toBe(true);
    expect(matchesLoan({ submitted: window }, loan('2026-03-01T00:30:00.123456789+01:00'))).toBe(true);
    expect(matchesLoan({ submitted: window }, loan('2026-03-01T00:30:00.123456789-01:00'))).toBe(false);
  });
});

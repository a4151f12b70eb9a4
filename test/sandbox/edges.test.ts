/**
 * Values at the edges of what the sandbox accepts: each is either stored and shown exactly, or
 * refused with the 400 envelope naming the field and its range (README "Sandbox behaviour").
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, type Org, openSandbox, type TestSandbox, userBody } from '../helpers/sandbox.js';

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
    expect(await createdBetween({ end: '9999-12-31' })).toEqual(stamps);
    expect(await createdBetween({ start: '0000-01-01', end: '9999-12-31' })).toEqual(stamps);
    expect(await createdBetween({ start: '9999-12-31', end: '9999-12-31' })).toEqual([stamps[2]]);
    expect(await createdBetween({ start: '0000-01-01', end: '0000-01-01' })).toEqual([stamps[0]]);
    expect(await createdBetween({ start: '2026-03-02', end: '9999-12-30' })).toEqual([stamps[1]]);
  });
});

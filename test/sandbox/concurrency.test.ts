import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, openSandbox, snapshot, type TestSandbox, userBody } from '../helpers/sandbox.js';

let sandbox: TestSandbox;
beforeEach(async () => {
  sandbox = await openSandbox();
});
afterEach(() => sandbox.close());

it('makes exactly one user of 50 concurrent creates of one e-mail (in mixed case): 1 success, 49 exists', async () => {
  const body = userBody({ email: 'race@example.com' });
  const replies = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      call(sandbox.app, 'createUser', {
        key: sandbox.org.api_key,
        body: { ...body, email: i % 2 ? 'RACE@example.com' : 'race@EXAMPLE.com', firstname: `Racer${i}` },
      }),
    ),
  );
  const statuses = replies.map((reply) => reply.json.status);
  expect(statuses.filter((status) => status === 'success')).toHaveLength(1);
  expect(statuses.filter((status) => status === 'exists')).toHaveLength(49);
  const winner = replies.find((reply) => reply.json.status === 'success')?.json.data;
  for (const reply of replies) expect(reply.json.data).toEqual(winner);
  expect(snapshot(sandbox.dbPath).users).toHaveLength(1);
});

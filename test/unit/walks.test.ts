/**
 * The walks over lists the API cannot search: `user find` asks for several numbered
 * pages at once yet handles them in order, and a terminal sees the pages read and rows matched
 * as the walk goes, erased at its end. Against the real sandbox, listening on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoanFind } from '../../src/commands/loan/find.js';
import { runLoanQueue } from '../../src/commands/loan/queue.js';
import { runUserFind } from '../../src/commands/user/find.js';
import { createDeps } from '../../src/deps.js';
import { scanUsers } from '../../src/domain/user-find.js';
import type { ApiClient } from '../../src/http/api-client.js';
import { dbPathFor, SandboxDb } from '../../src/sandbox/db.js';
import { createRepos } from '../../src/sandbox/repos/index.js';
import { fakeIo } from '../helpers/fake-io.js';
import { openSandbox, type TestSandbox, tempDir } from '../helpers/sandbox.js';

const USERS = 1_000; // 20 pages of the sandbox's 50
const LOANS = 150; // two pages of the walks' 100
let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await openSandbox({ listen: true });
  const db = SandboxDb.open(dbPathFor(sandbox.dataDir));
  try {
    const repos = createRepos(db);
    db.transaction(() => {
      for (let n = 1; n <= USERS; n++) {
        repos.users.create({
          org_id: sandbox.org.org_id,
          firstname: 'Borrower',
          lastname: `Number${n}`,
          email: `walk-${n}@example.com`,
          phone: n % 100 === 0 ? '+2348099999999' : `+23480${String(10_000_000 + n)}`,
          gender: 'female',
          reference: `USR-${n}`,
          source: 'api',
          now: new Date().toISOString(),
        });
      }
      for (let n = 1; n <= LOANS; n++) {
        repos.loanRequests.create({
          org_id: sandbox.org.org_id,
          user_id: 1,
          product_id: sandbox.org.product_id,
          reference: `LR-WALK-${n}`,
          amount: 1000 + n,
          purpose: 'Walk',
          now: new Date().toISOString(),
        });
      }
    });
  } finally {
    db.close();
  }
});
afterAll(() => sandbox?.close());

function depsFor(tty: boolean) {
  const io = fakeIo({ tty });
  const env = {
    LOANCTL_BASE_URL: sandbox.url,
    LOANCTL_API_KEY: sandbox.org.api_key,
    LOANCTL_PRODUCT_ID: String(sandbox.org.product_id),
    LOANCTL_CONFIG_DIR: tempDir(),
  };
  return { io, deps: createDeps({ io, env, globals: { output: 'json' } }) };
}

describe('user find', () => {
  it('has several pages on their way at once, and still prints every match in list order', async () => {
    const { deps } = depsFor(false);
    const api = await deps.api();
    let inFlight = 0;
    let most = 0;
    const counting = Object.create(api) as ApiClient;
    counting.call = (async (key: string, options: unknown) => {
      inFlight++;
      most = Math.max(most, inFlight);
      try {
        return await (api.call as (key: string, options: unknown) => Promise<unknown>)(key, options);
      } finally {
        inFlight--;
      }
    }) as ApiClient['call'];
    const ids: number[] = [];
    const { scanned } = await scanUsers(
      counting,
      (user) => user.phone === '+2348099999999',
      (hits) => {
        ids.push(...hits.map((user) => user.id));
      },
    );
    await deps.dispose();
    expect(scanned).toBe(USERS);
    expect(ids).toHaveLength(10);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(most).toBeGreaterThan(1);
  });

  it('on a terminal, shows the pages read and rows matched, then erases the line before its closing one', async () => {
    const { io, deps } = depsFor(true);
    await runUserFind({ phone: '08099999999' }, deps);
    await deps.dispose();
    const stderr = io.stderr.text();
    expect(stderr.startsWith('\r\x1b[KScanned 50 users (1 page); 0 matched')).toBe(true);
    expect(stderr.endsWith(`\r\x1b[KScanned ${USERS} new users (${USERS} in the index); 10 matched.\n`)).toBe(true);
    expect(JSON.parse(io.stdout.text())).toHaveLength(10);
  });

  it('elsewhere, only the closing line (the whole list is walked into the index, then --limit applies)', async () => {
    const { io, deps } = depsFor(false);
    await runUserFind({ phone: '08099999999', limit: '3' }, deps);
    await deps.dispose();
    expect(io.stderr.text()).toBe(`Scanned ${USERS} new users (${USERS} in the index); 3 matched.\n`);
  });
});

describe('the walks over loan requests', () => {
  it('loan find --reference and loan queue show their progress on a terminal too', async () => {
    const find = depsFor(true);
    await runLoanFind({ reference: 'LR-WALK-1' }, find.deps);
    await find.deps.dispose();
    expect(find.io.stderr.text().startsWith('\r\x1b[KScanned 100 loan requests (1 page); 0 matched')).toBe(true);
    expect(find.io.stderr.text()).toContain(`\r\x1b[KScanned ${LOANS} loan requests.\n`);

    const queue = depsFor(true);
    await runLoanQueue({}, queue.deps);
    await queue.deps.dispose();
    expect(queue.io.stderr.text().startsWith('\r\x1b[KScanned 100 loan requests (1 page); 0 matched')).toBe(true);
  });
});

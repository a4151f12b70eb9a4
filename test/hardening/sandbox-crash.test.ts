/**
 * `kill -9` during a steady write load: the real sandbox
 * process takes user and loan request creates from 8 concurrent clients; every reply that said
 * success is recorded; the process is SIGKILLed mid-load, with requests in flight. Restarted on the
 * same data dir, every write that was answered with success is there, nothing is there that no
 * client could have caused, and `PRAGMA integrity_check` says ok.
 *
 * SQLite in WAL mode with synchronous=NORMAL is durable across a process crash (only a power
 * loss may lose the last commits), and the sandbox answers only after COMMIT: this test holds it
 * to that.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, expect, it } from 'vitest';
import { cleanEnv, http, removeTemps, type SandboxProc, startSandbox, temp } from './helpers.js';

const WORKERS = 8;
/** Kill once this many writes have been answered with success (and the clients are still sending). */
const KILL_AFTER = 120;

const started: SandboxProc[] = [];
afterAll(async () => {
  for (const sandbox of started) await sandbox.kill9();
  removeTemps();
});

it('keeps every write answered with success across a kill -9, and the database is intact', async () => {
  const dataDir = temp('loanctl-crash-');
  const env = cleanEnv();
  const first = await startSandbox(dataDir, env);
  started.push(first);
  const { url, api_key: key, product_id: product } = first.line;

  // One borrower to hang loan requests on (found through the list, as a client must).
  const seed = await http(url, key, 'POST', '/api/v1/user', user('seed'));
  expect(seed.json.status).toBe('success');
  const list = await http(url, key, 'GET', '/api/v1/user');
  const seedId = (list.json.data as Array<{ id: number }>)[0]?.id as number;

  const users = new Set<string>(['seed@crash.example']);
  const loans = new Set<number>();
  let stop = false;
  let reachedKillPoint: () => void = () => {};
  const killPoint = new Promise<void>((resolve) => {
    reachedKillPoint = resolve;
  });
  const successes = () => users.size - 1 + loans.size;

  const worker = async (w: number) => {
    for (let i = 0; !stop; i++) {
      try {
        if (i % 2 === 0) {
          const email = `w${w}.u${i}@crash.example`;
          const reply = await http(url, key, 'POST', '/api/v1/user', user(`w${w}.u${i}`));
          if (reply.json.status === 'success') users.add(email);
          else throw new Error(`createUser answered ${JSON.stringify(reply.json)}`);
        } else {
          const reply = await http(url, key, 'POST', `/api/v1/user/${seedId}/loan_request?product-id=${product}`, {
            amount: 1000 + i,
            purpose: `crash w${w} i${i}`,
          });
          if (reply.json.status === 'success') loans.add((reply.json.data as { id: number }).id);
          else throw new Error(`createLoanRequest answered ${JSON.stringify(reply.json)}`);
        }
      } catch (error) {
        // After the kill, a request fails in transport; its outcome is unknown, and not counted.
        if (!stop) throw error;
        return;
      }
      if (successes() >= KILL_AFTER) reachedKillPoint();
    }
  };

  const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
  await Promise.race([killPoint, load]);
  stop = true;
  await first.kill9();
  await load;
  expect(first.child.signalCode).toBe('SIGKILL');
  expect(successes()).toBeGreaterThanOrEqual(KILL_AFTER);

  // Restart on the same data dir: what was answered with success is all there.
  const second = await startSandbox(dataDir, env);
  started.push(second);
  const seen = new Set<string>();
  for (let page = 1; ; page++) {
    const reply = await http(second.line.url, key, 'GET', `/api/v1/user?pages=${page}`);
    const rows = reply.json.data as Array<{ email: string }>;
    if (rows.length === 0) break;
    for (const row of rows) seen.add(row.email);
  }
  for (const email of users) expect(seen.has(email), email).toBe(true);
  for (const id of loans) {
    const progress = await http(
      second.line.url,
      key,
      'GET',
      `/api/v1/loan_request/${id}/progress?product-id=${product}`,
    );
    expect(progress.json.status, `loan request ${id}`).toBe('success');
  }
  // And nothing beyond what was attempted: at most the requests in flight at the kill were also committed.
  expect(seen.size).toBeLessThanOrEqual(users.size + WORKERS);
  await second.stop();

  const db = new DatabaseSync(join(dataDir, 'sandbox.db'));
  try {
    expect(db.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
    expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    const loanRows = (db.prepare('SELECT count(*) AS n FROM loan_requests').get() as { n: number }).n;
    expect(loanRows).toBeGreaterThanOrEqual(loans.size);
    expect(loanRows).toBeLessThanOrEqual(loans.size + WORKERS);
  } finally {
    db.close();
  }
}, 90_000);

function user(name: string) {
  return {
    firstname: 'Ada',
    lastname: 'Crash',
    email: `${name}@crash.example`,
    password: 'pw',
    phone: '+2348012345678',
    gender: 'female',
  };
}

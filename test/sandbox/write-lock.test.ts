/**
 * Another process holds the sandbox database's write lock (BEGIN IMMEDIATE in a second process):
 * reads are answered meanwhile, a write waits for the lock without stalling the server, and one
 * that cannot get it within the bound is answered with the 503 envelope and changes nothing.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createOrganisation, createProduct } from '../../src/sandbox/admin.js';
import { buildSandbox } from '../../src/sandbox/app.js';
import { BUSY_MESSAGE } from '../../src/sandbox/busy.js';
import { dbPathFor } from '../../src/sandbox/db.js';
import { holdWriteLock as holdLock, releaseWriteLock as release } from '../helpers/lock-holder.js';
import { type CallResult, call, type Org, seedLoanRequest, snapshot, tempDir } from '../helpers/sandbox.js';

let dataDir: string;
let app: FastifyInstance;
let org: Org;
let holder: ChildProcess | undefined;

async function open(lockWaitMs: number): Promise<void> {
  app = await buildSandbox({
    dbPath: dbPathFor(dataDir),
    lockWaitMs,
    onError: (error) => {
      throw error;
    },
  });
}

async function holdWriteLock(): Promise<ChildProcess> {
  holder = await holdLock(dbPathFor(dataDir));
  return holder;
}

beforeEach(() => {
  dataDir = tempDir();
  const created = createOrganisation(dataDir, 'First Lender');
  org = { ...created, product_id: createProduct(dataDir, created.org_id, 'Loan').product_id };
});

afterEach(async () => {
  holder?.kill();
  holder = undefined;
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves with the reply and records the order in which replies arrived. */
function tracked(order: string[], name: string, reply: Promise<CallResult>): Promise<CallResult> {
  return reply.then((result) => {
    order.push(name);
    return result;
  });
}

it('answers reads at once while a write waits for the lock, then refuses the write with a 503 envelope', async () => {
  await open(2_500);
  const { loanRequestId } = await seedLoanRequest(app, org);
  const before = snapshot(dbPathFor(dataDir));
  await holdWriteLock();

  const order: string[] = [];
  const write = tracked(
    order,
    'write',
    call(app, 'updateLoanRequest', {
      key: org.api_key,
      params: { id: loanRequestId },
      productId: org.product_id,
      body: { purpose: 'changed while locked' },
    }),
  );
  // Once the write has met the lock: SQLite's own busy wait would hold this timer (and every
  // request) until it gave up.
  await pause(100);
  const reads = [
    tracked(
      order,
      'list',
      call(app, 'listLoanRequests', { key: org.api_key, productId: org.product_id, query: { direction: 'ASC' } }),
    ),
    tracked(order, 'users', call(app, 'listUsers', { key: org.api_key })),
    tracked(
      order,
      'progress',
      call(app, 'getProgress', { key: org.api_key, params: { id: loanRequestId }, productId: org.product_id }),
    ),
  ];
  for (const read of await Promise.all(reads)) expect(read.json.status).toBe('success');
  // With SQLite's own busy wait the loop stalled until the write gave up: the reads came after it.
  expect(order).toEqual(['list', 'users', 'progress']);

  const refused = await write;
  expect(order).toEqual(['list', 'users', 'progress', 'write']);
  expect(refused.http).toBe(503);
  expect(refused.json).toEqual({ status: 'error', message: BUSY_MESSAGE });
  expect(snapshot(dbPathFor(dataDir))).toEqual(before);
});

it('applies a write once the other process lets the lock go within the bound', async () => {
  await open(10_000);
  const { loanRequestId } = await seedLoanRequest(app, org);
  const child = await holdWriteLock();
  const write = call(app, 'updateLoanRequest', {
    key: org.api_key,
    params: { id: loanRequestId },
    productId: org.product_id,
    body: { purpose: 'after the lock' },
  });
  await pause(100);
  // The server is still answering while the write waits.
  expect((await call(app, 'listUsers', { key: org.api_key })).json.status).toBe('success');
  await release(child);
  const applied = await write;
  expect(applied.json.status).toBe('success');
  expect((applied.json.data as { purpose: string }).purpose).toBe('after the lock');
});

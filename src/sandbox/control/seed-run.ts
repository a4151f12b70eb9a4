/**
 * Runs a seed file's steps through the sandbox's own app (`app.inject`): every row is made by the
 * same routes, checks and handlers as a client's request, never by SQL of its own. It acts as the
 * demo organisation, on its product, with the data dir's clock moved by each step's `at`. A step
 * whose reply is not `success` (or `exists`) stops the seed with that reply's message.
 */
import type { FastifyInstance } from 'fastify';
import { endpointDef, fillPath } from '../../contract/endpoints.js';
import { type DemoCredentials, ensureDemo } from '../admin.js';
import { buildSandbox } from '../app.js';
import { dbPathFor, SandboxDb } from '../db.js';
import { createRepos } from '../repos/index.js';
import { databaseClock, readClock, timeAt } from './clock.js';
import { fillReferences, SeedError, type SeedResults, type SeedStep } from './seed-file.js';

export interface SeedSummary {
  /** Calls made per step, in file order. */
  steps: Array<{ name: string; op: string; calls: number }>;
  org_id: number;
  product_id: number;
}

export async function runSeed(dataDir: string, steps: SeedStep[]): Promise<SeedSummary> {
  const demo = ensureDemo(dataDir);
  const db = SandboxDb.open(dbPathFor(dataDir));
  try {
    checkStepTimes(db, steps);
  } catch (error) {
    db.close();
    throw error;
  }
  const clock = databaseClock(db);
  let offsetMs = 0;
  const app = await buildSandbox({
    dbPath: dbPathFor(dataDir),
    now: () => new Date(clock().getTime() + offsetMs),
    onError: (error) => {
      throw error;
    },
  });
  try {
    const results: SeedResults = new Map();
    const summary: SeedSummary = { steps: [], org_id: demo.org_id, product_id: demo.product_id };
    for (const step of steps) {
      offsetMs = step.atMs;
      const runs: unknown[] = [];
      for (let i = 1; i <= step.count; i++) {
        runs.push(await runStep(app, step, results, i, demo, (email) => userIdByEmail(db, demo.org_id, email)));
      }
      results.set(step.name, runs);
      summary.steps.push({ name: step.name, op: step.op, calls: step.count });
    }
    return summary;
  } finally {
    await app.close();
    db.close();
  }
}

/** Every step's time, checked before the first step is sent: nothing is half-seeded for a typo. */
function checkStepTimes(db: SandboxDb, steps: SeedStep[]): void {
  // readClock, not the server's clock: a stored clock out of range is a ClockRangeError here too.
  const { now } = readClock(db);
  for (const step of steps) {
    timeAt(now, step.atMs, `Step "${step.name}": its \`at\` would take the clock out of range`);
  }
}

function userIdByEmail(db: SandboxDb, orgId: number, email: string): number | undefined {
  return createRepos(db).users.findByEmail(orgId, email)?.id;
}

async function runStep(
  app: FastifyInstance,
  step: SeedStep,
  results: SeedResults,
  i: number,
  demo: DemoCredentials,
  userId: (email: string) => number | undefined,
): Promise<unknown> {
  const where = `step "${step.name}"${step.count > 1 ? ` (${i} of ${step.count})` : ''}`;
  const def = endpointDef(step.op);
  let url: string;
  let body: unknown;
  try {
    const params = fillReferences(step.params, results, i) as Record<string, string | number>;
    const search = new URLSearchParams();
    if (def.productId) search.set('product-id', String(demo.product_id));
    for (const [name, value] of Object.entries(fillReferences(step.query, results, i) as object)) {
      search.set(name, String(value));
    }
    url = `${fillPath(def.path, params)}${search.size > 0 ? `?${search}` : ''}`;
    body = fillReferences(step.body, results, i);
  } catch (error) {
    throw new SeedError(`${where}: ${(error as Error).message}`);
  }
  const reply = await app.inject({
    method: def.method,
    url,
    headers: { authorization: `Bearer ${demo.api_key}` },
    ...(body !== undefined && { payload: body as object }),
  });
  const envelope = JSON.parse(reply.body) as { status: string; message: string; data?: unknown; data1?: unknown };
  if (envelope.status !== 'success' && envelope.status !== 'exists') {
    throw new SeedError(`${where}: ${step.op} answered ${reply.statusCode} ${envelope.status}: ${envelope.message}`);
  }
  return resultOf(step, envelope, userId);
}

/**
 * What later steps may refer to: the reply's loan request (`data1`, where the API puts it) or its
 * `data`. The API's reply to createUser carries no id; the seed adds it (found by e-mail).
 */
function resultOf(
  step: SeedStep,
  envelope: { data?: unknown; data1?: unknown },
  userId: (email: string) => number | undefined,
): unknown {
  const result = envelope.data1 ?? envelope.data;
  if (step.op === 'createUser' && result !== null && typeof result === 'object') {
    const user = result as { email: string };
    return { ...user, id: userId(user.email) };
  }
  return result;
}

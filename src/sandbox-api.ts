/**
 * `loanctl/sandbox`: the sandbox for a lender's own test suite, started in its process as
 * mongodb-memory-server or stripe-mock are for theirs. The same code as `loanctl sandbox start`
 * (sandbox/server.ts) and the `reset`, `snapshot`, `restore`, `seed` and `clock` commands
 * (sandbox/control/), without the CLI around them. docs/sandbox.md#using-it-in-tests.
 *
 * The types written here are the whole public surface (scripts/build.mjs emits dist/sandbox.d.ts
 * from this file alone), so they name nothing of the internals.
 */
import { resolve } from 'node:path';
import { setClock } from './sandbox/control/clock.js';
import { loadSeedFile } from './sandbox/control/seed-file.js';
import { runSeed } from './sandbox/control/seed-run.js';
import { resetData, restoreSnapshot, takeSnapshot } from './sandbox/control/state.js';
import { makeTemporaryDir, removeTemporaryDir } from './sandbox/control/temporary-dir.js';
import { dbPathFor, SandboxDb } from './sandbox/db.js';
import { readFreshLog } from './sandbox/log/fresh.js';
import { matchingRequests, publicRequest, verifyRequests } from './sandbox/log/requests.js';
import { startSandboxServer } from './sandbox/server.js';

export interface StartSandboxOptions {
  /** The port on 127.0.0.1; default 0, a free one (read it from `url`). */
  port?: number;
  /**
   * Where the data lives, kept between starts. Default: a new temporary directory, removed by
   * `stop()`, or when the process ends without it (normal exit, uncaught exception, SIGINT,
   * SIGTERM, SIGHUP).
   */
  dataDir?: string;
  /** The sandbox's time at start (an ISO 8601 time with its zone, or a Date); it runs on from there. */
  clock?: Date | string;
  /** A seed file (docs/sandbox.md#seed-files) to create data from once it has started. */
  seed?: string;
}

export interface SeedResult {
  /** Calls made per step of the file, in its order. */
  steps: Array<{ name: string; op: string; calls: number }>;
  orgId: number;
  productId: number;
}

/** Which requests: every condition given must hold. */
export interface RequestQuery {
  /** GET, POST, … */
  method?: string;
  /** The path, or a glob of it: `/api/v1/loan_request/*` (`*` within a segment, `**` across). */
  path?: string;
  /** An HTTP code (404), a class ('4xx'), an envelope status ('error', 'no-access'), or 'refused'. */
  status?: number | string;
  /** Only requests answered at or after this time. */
  since?: Date | string;
}

/** A request as the sandbox's request log recorded it (docs/sandbox.md, "Request log"); keys and passwords hidden. */
export interface RecordedRequest {
  id: number;
  /** When its reply was sent (ISO 8601, UTC, the wall clock). */
  time: string;
  org_id: number | null;
  method: string;
  path: string;
  /** The query string without `?`; '' when none. */
  query: string;
  http: number;
  /** The envelope's status; null when the reply was not an envelope. */
  status: string | null;
  ms: number;
  /** Why it was refused, or which fault or Prefer header answered it. */
  why: string | null;
  /** The bodies as JSON text, cut at 2,048 characters. */
  request_body: string | null;
  reply_body: string | null;
  ended: 'answered' | 'client gone' | 'dropped';
  /** What its Prefer header asked for. */
  prefer: string | null;
  /** Where it broke the contract (`loanctl sandbox proxy` only). */
  violations: unknown[] | null;
}

export interface Sandbox {
  /** Base URL of the API, e.g. `http://127.0.0.1:41061` (the dashboard is at `${url}/dashboard`). */
  url: string;
  /** The demo organisation's API key: send it as `Authorization: Bearer …`. */
  apiKey: string;
  orgId: number;
  /** The demo organisation's product. */
  productId: number;
  dataDir: string;
  /** The control plane's own key, for `GET ${'{url}'}/__sandbox/requests` from another language. */
  controlKey: string;
  /**
   * The requests the sandbox received that match, oldest first: every request is there the moment
   * its reply has been sent.
   */
  requests(query?: RequestQuery): Promise<RecordedRequest[]>;
  /**
   * Resolves when `count` requests match (exactly; at least one without `count`); otherwise rejects
   * with what was expected, what matched and the nearest requests that did not.
   */
  expectRequest(query: RequestQuery & { count?: number }): Promise<void>;
  /** Empties borrowers, loan requests and attachments; keeps organisations, keys and products. */
  reset(): Promise<void>;
  /** A consistent copy of the data under `name` (replacing one of that name). */
  snapshot(name: string): Promise<void>;
  /** The data becomes the snapshot's, in one transaction. */
  restore(name: string): Promise<void>;
  /** Creates data from a seed file, through the API's own routes. */
  seed(file: string): Promise<SeedResult>;
  /**
   * Finishes the requests in flight, stops listening, and removes a temporary data dir. Once
   * stopped, the other methods reject; `stop()` again does nothing.
   */
  stop(): Promise<void>;
}

export async function startSandbox(options: StartSandboxOptions = {}): Promise<Sandbox> {
  const temporary = options.dataDir === undefined;
  const dataDir = options.dataDir ?? makeTemporaryDir();
  const removeIfTemporary = () => {
    if (temporary) removeTemporaryDir(dataDir);
  };
  try {
    const running = await startSandboxServer({ dataDir, host: '127.0.0.1', port: options.port ?? 0 });
    let stopped: Promise<void> | undefined;
    /** `work`, unless the sandbox was stopped: then a clear refusal, and no data dir made again. */
    const whileRunning =
      <A extends unknown[], T>(method: string, work: (...args: A) => Promise<T>) =>
      async (...args: A): Promise<T> => {
        if (stopped) throw new Error(`startSandbox: ${method}() after stop(): this sandbox is stopped; start another.`);
        return work(...args);
      };
    const sandbox: Sandbox = {
      url: running.url,
      apiKey: running.demo.api_key,
      orgId: running.demo.org_id,
      productId: running.demo.product_id,
      dataDir,
      controlKey: running.controlKey,
      requests: whileRunning(
        'requests',
        async (query: RequestQuery = {}) =>
          readFreshLog(running.app.flushRequestLog, dataDir, (db) => matchingRequests(db, matchOf(query)))?.map(
            publicRequest,
          ) ?? [],
      ),
      expectRequest: whileRunning('expectRequest', async ({ count, ...query }: RequestQuery & { count?: number }) => {
        const verdict = readFreshLog(running.app.flushRequestLog, dataDir, (db) =>
          verifyRequests(db, matchOf(query), count),
        );
        if (verdict ? !verdict.ok : count !== 0)
          throw new Error(verdict?.message ?? 'The sandbox has logged no request.');
      }),
      reset: whileRunning('reset', async () => void withDb(dataDir, (db) => resetData(db))),
      snapshot: whileRunning(
        'snapshot',
        async (name: string) => void withDb(dataDir, (db) => takeSnapshot(db, dataDir, name, true)),
      ),
      restore: whileRunning(
        'restore',
        async (name: string) => void withDb(dataDir, (db) => restoreSnapshot(db, dataDir, name)),
      ),
      seed: whileRunning('seed', async (file: string) => {
        const { steps, org_id, product_id } = await runSeed(dataDir, loadSeedFile(resolve(file)));
        return { steps, orgId: org_id, productId: product_id };
      }),
      stop: () => {
        stopped ??= running.close().finally(removeIfTemporary);
        return stopped;
      },
    };
    try {
      if (options.clock !== undefined) withDb(dataDir, (db) => setClock(db, clockTime(options.clock)));
      if (options.seed !== undefined) await sandbox.seed(options.seed);
    } catch (error) {
      await running.close();
      throw error;
    }
    return sandbox;
  } catch (error) {
    removeIfTemporary();
    throw error;
  }
}

function matchOf(query: RequestQuery) {
  const since = query.since instanceof Date ? query.since.toISOString() : query.since;
  return { method: query.method, path: query.path, status: query.status, since };
}

function clockTime(clock: Date | string | undefined): Date {
  const at = new Date(clock ?? Number.NaN);
  if (Number.isNaN(at.getTime())) throw new Error(`startSandbox: clock ${JSON.stringify(clock)} is not a time.`);
  return at;
}

/** The data dir's database, opened beside the server for one piece of work (SQLite's WAL keeps both consistent). */
function withDb<T>(dataDir: string, work: (db: SandboxDb) => T): T {
  const db = SandboxDb.open(dbPathFor(dataDir));
  try {
    return work(db);
  } finally {
    db.close();
  }
}

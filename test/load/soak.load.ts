/**
 * The soak, in `npm run test:load`: for about a
 * minute, 32 clients run the whole loan flow (./soak-flow.ts) against the real sandbox process on
 * loopback — half through the CLI's own HTTP client in-process, half with raw `node:http`
 * (./soak-senders.ts) — while the sandbox is killed with SIGKILL and restarted on the same port and
 * data dir every 10 s, and a second process reads throughout (./soak-reader.ts). After the last
 * restart:
 *
 * - every acknowledged write (a success envelope came back) is in the database (./soak-verify.ts),
 *   and the restarted sandbox shows every approved loan request as approved;
 * - no borrower and no employment is there twice, though writes whose answer was lost were repeated;
 * - `PRAGMA integrity_check` is ok and no foreign key dangles;
 * - not one reply, to the clients or to the reader, was outside the API's envelope, and none was
 *   an envelope the flow does not allow;
 * - the sandbox's memory does not grow with its data: see RSS below.
 *
 * RSS: the sandbox is a new process every 10 s, so "its RSS after the last minute against its RSS
 * after the first" is measured per incarnation, at the same age: each one's VmRSS from 3 to 6 s
 * after it started listening, with the load on (Fastify, SQLite's page cache and the read cache
 * warm), every 250 ms, the median (one sample may fall either side of a collection). A leak inside
 * one process cannot build up in 10 s, but what grows with the data it finds at start-up (a cache
 * sized by rows, a WAL never checkpointed, an index held in memory) shows as a later incarnation
 * being heavier at the same age. The baseline is the second incarnation, the first after the
 * warm-up (~10 s in): the first one serves clients that are still cold (the test process compiling
 * the client code, opening its first connections), so it sees less load and runs some 10–15 %
 * lighter than all the others; the last must be within 25 % of the baseline.
 *
 * Bounded: kills at 10, 20 … 60 s after the first start, on the clock (a slow restart shortens the
 * next incarnation's life; none is killed before its RSS sample), so the sixth is killed too, with
 * requests in flight, and the last restart is also after a crash; then the checks, a few seconds.
 * Every process it starts is killed in afterAll, whatever happened. The figures of each run are
 * printed (CI's log); docs/reliability.md names the guarantee.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, expect, it } from 'vitest';
import type { LoanRequestPage } from '../../src/contract/schemas.js';
import { ENVELOPE_STATUSES } from '../../src/contract/vocabulary.js';
import { dbPathFor } from '../../src/sandbox/db.js';
import { cleanEnv, ROOT, removeTemps, type SandboxProc, startSandbox, temp } from '../hardening/helpers.js';
import { portBelowEphemeralRange } from '../helpers/ports.js';
import { type Ledger, newLedger, type Round, runClient } from './soak-flow.js';
import { cliSender, rawSender, type Sender, type Target } from './soak-senders.js';
import { type Findings, verifyDatabase } from './soak-verify.js';

const CLIENTS = 32;
const INCARNATIONS = 6;
const LIFETIME_MS = 10_000;
/** Ages at which an incarnation's RSS is sampled (its median is the figure). */
const RSS_AGES_MS = Array.from({ length: 13 }, (_, i) => 3_000 + i * 250);
const RSS_TOLERANCE = 0.25;
const READER = join(ROOT, 'test/load/soak-reader.ts');

interface Incarnation {
  proc: SandboxProc;
  readyAt: number;
  /** Milliseconds from the kill of the one before to this one listening. */
  downtimeMs?: number;
  rssKb?: number;
}

interface ReaderReport {
  replies: number;
  success: number;
  down: number;
  rounds: number;
  nonEnvelope: string[];
  notSuccess: string[];
}

const incarnations: Incarnation[] = [];
let reader: ResultPromise | undefined;
/** Set when the soak is over, or in afterAll should the test end early (a timeout): the clients stop. */
let stopped = false;

afterAll(async () => {
  stopped = true;
  reader?.kill('SIGKILL');
  await reader;
  for (const { proc } of incarnations) await proc.kill9();
  removeTemps();
});

/** Resident memory of a process, in KiB: VmRSS from /proc on Linux, `ps` elsewhere. */
function rssKb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (match) return Number(match[1]);
  } catch {
    // not Linux: ask ps
  }
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim());
}

const sleepUntil = (time: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, time - Date.now())));

/** The median of an incarnation's RSS samples at RSS_AGES_MS; fails if it ended by itself meanwhile. */
async function medianRss(incarnation: Incarnation, number: number): Promise<number> {
  const samples: number[] = [];
  const { child } = incarnation.proc;
  for (const age of RSS_AGES_MS) {
    await sleepUntil(incarnation.readyAt + age);
    if (child.exitCode !== null || child.signalCode !== null) {
      const how = child.exitCode ?? child.signalCode;
      throw new Error(`sandbox incarnation ${number} ended by itself (${how}): ${incarnation.proc.stderr()}`);
    }
    samples.push(rssKb(child.pid as number));
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] as number;
}

/** The second process: reads until its stdin ends (./soak-reader.ts). */
function startReader(target: Target, env: Record<string, string>): ResultPromise {
  return execa(process.execPath, [READER], {
    env: {
      ...env,
      SOAK_URL: target.url,
      SOAK_KEY: target.key,
      SOAK_PRODUCT: String(target.product),
      SOAK_STATUSES: ENVELOPE_STATUSES.join(','),
    },
    extendEnv: false,
    reject: false,
    stdin: 'pipe',
    cwd: ROOT,
  });
}

async function stopReader(child: ResultPromise): Promise<ReaderReport> {
  child.stdin?.end();
  const result = await child;
  const line = String(result.stdout).trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(line) as ReaderReport;
  } catch {
    throw new Error(`the reader printed ${JSON.stringify(line)}; stderr: ${String(result.stderr).slice(0, 500)}`);
  }
}

/** The 32 clients, half through the CLI's client and half raw, until `stopped()`. */
function startClients(target: Target, orgId: number, ledger: Ledger, stopped: () => boolean) {
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS / 2 });
  const senders: Sender[] = Array.from({ length: CLIENTS }, (_, c) =>
    c % 2 === 0 ? cliSender(target) : rawSender(target, agent),
  );
  const userPage = { hint: 1 };
  const tag = Date.now().toString(36);
  const running = Promise.all(
    senders.map((sender, c) => runClient({ sender, ledger, orgId, stopped, userPage }, c, tag)),
  );
  // A client that throws (a bug in the soak itself) is reported when `done` is awaited.
  running.catch(() => {});
  return {
    async done() {
      try {
        await running;
      } finally {
        for (const sender of senders) await sender.close();
        agent.destroy();
      }
    },
  };
}

/**
 * What the restarted sandbox tells a client: each approved loan request reads back approved. Read
 * through the list, 100 a page (on a quiet machine the soak approves some 15,000 loan requests: one
 * GET each took longer than the test's bound).
 */
async function notReadBackApproved(target: Target, rounds: readonly Round[]): Promise<string[]> {
  const lenderStatus = new Map<number, unknown>();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const sender = rawSender(target, agent);
  const wrong: string[] = [];
  for (let cursor = 0; ; ) {
    const reply = await sender.send({ key: 'listLoanRequests', query: { direction: 'ASC', cursor, limit: 100 } });
    const page = reply.kind === 'reply' ? (reply.envelope?.data as LoanRequestPage | undefined) : undefined;
    if (page === undefined) {
      wrong.push(`the loan request list after ${cursor}: ${JSON.stringify(reply)}`);
      break;
    }
    if (page.loan_requests.length === 0 || page.cursor === cursor) break;
    for (const loan of page.loan_requests) lenderStatus.set(loan.id, loan.lender_status);
    cursor = page.cursor;
  }
  agent.destroy();
  for (const round of rounds) {
    if (!round.acked.has('approveLoanRequest')) continue;
    const status = lenderStatus.get(round.loanId as number);
    if (status !== 'approved') wrong.push(`loan request ${round.loanId}: lender_status ${JSON.stringify(status)}`);
  }
  return wrong;
}

/** One line for CI's log: the figures of the run. */
function printFigures(run: {
  ledger: Ledger;
  findings: Findings;
  read: ReaderReport;
  rss: number[];
  soakMs: number;
  checkMs: number;
}): void {
  const { ledger, findings, read, rss } = run;
  const acked = Object.values(findings.checked).reduce((sum, n) => sum + n, 0);
  const mib = rss.map((kb) => Math.round(kb / 1024));
  const ratio = ((rss.at(-1) ?? 0) / (rss[1] ?? 1)).toFixed(2);
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  process.stdout.write(
    `soak: ${ledger.rounds.length} rounds (${ledger.completed} complete, ${ledger.abandoned} left after a lost loan request create), ` +
      `${acked} acknowledged writes ${JSON.stringify(findings.checked)}, requests ${JSON.stringify(ledger.requests)}; ` +
      `reader ${read.replies} replies in ${read.rounds} rounds, ${read.down} refused or cut; ` +
      `restarts ${JSON.stringify(incarnations.slice(1).map((i) => i.downtimeMs))} ms; ` +
      `RSS at 3-6 s ${JSON.stringify(mib)} MiB (last/second ${ratio}); ` +
      `soak ${seconds(run.soakMs)} s, checks ${seconds(run.checkMs)} s\n`,
  );
}

it(`${CLIENTS} clients run the loan flow for ${(INCARNATIONS * LIFETIME_MS) / 1000} s while the sandbox is killed -9 every ${LIFETIME_MS / 1000} s: nothing acknowledged is lost`, async () => {
  const dataDir = temp('loanctl-soak-');
  const env = cleanEnv();
  const start = async (port: number, killedAt?: number) => {
    const proc = await startSandbox(dataDir, env, port);
    const readyAt = Date.now();
    const incarnation: Incarnation = { proc, readyAt };
    if (killedAt !== undefined) incarnation.downtimeMs = readyAt - killedAt;
    incarnations.push(incarnation);
    return incarnation;
  };

  const port = await portBelowEphemeralRange();
  const first = await start(port);
  const { url, api_key: key, product_id: product, org_id: orgId } = first.proc.line;
  const target: Target = { url, key, product };
  reader = startReader(target, env);
  const ledger = newLedger();
  const clients = startClients(target, orgId, ledger, () => stopped);

  // Kills on the wall clock, every LIFETIME_MS from the first start (so the soak lasts its minute
  // however long the restarts take), but never before the incarnation's RSS sample.
  const soakStart = first.readyAt;
  try {
    for (let n = 0; n < INCARNATIONS; n++) {
      const current = incarnations[n] as Incarnation;
      current.rssKb = await medianRss(current, n + 1);
      await sleepUntil(soakStart + (n + 1) * LIFETIME_MS);
      await current.proc.kill9();
      if (n < INCARNATIONS - 1) await start(port, Date.now());
    }
  } finally {
    stopped = true;
    await clients.done();
  }
  const soakMs = Date.now() - soakStart;

  // The last restart, after the last kill: everything is checked against this one.
  const last = await start(port, Date.now());
  const read = await stopReader(reader);
  const findings = verifyDatabase(dbPathFor(dataDir), ledger.rounds);
  const notApproved = await notReadBackApproved(target, ledger.rounds);
  await last.proc.stop();
  const checkMs = Date.now() - soakStart - soakMs;

  const rss = incarnations.map((incarnation) => incarnation.rssKb).filter((kb) => kb !== undefined);
  const [rssBaseline = 0, rssLast = 0] = [rss[1], rss.at(-1)];
  printFigures({ ledger, findings, read, rss, soakMs, checkMs });

  expect(ledger.nonEnvelope.slice(0, 5), 'client replies outside the envelope').toEqual([]);
  expect(read.nonEnvelope, 'reader replies outside the envelope').toEqual([]);
  expect(ledger.unexpected.slice(0, 5), 'replies the flow does not allow').toEqual([]);
  expect(read.notSuccess, 'reads that did not succeed').toEqual([]);
  expect(findings.missing.slice(0, 10), 'acknowledged writes missing after the last restart').toEqual([]);
  expect(notApproved.slice(0, 5), 'approved loan requests the restarted sandbox does not show approved').toEqual([]);
  expect(findings.duplicateBorrowers).toEqual([]);
  expect(findings.duplicateEmployment).toEqual([]);
  expect(findings.integrity).toEqual([{ integrity_check: 'ok' }]);
  expect(findings.foreignKeys).toEqual([]);
  expect(rss, 'an RSS sample of every incarnation').toHaveLength(INCARNATIONS);
  expect(Math.abs(rssLast - rssBaseline) / rssBaseline, 'RSS of the last incarnation against the second').toBeLessThan(
    RSS_TOLERANCE,
  );
  // The soak did what it says: every client completed rounds, the kills were felt, the reader read.
  expect(ledger.completed).toBeGreaterThanOrEqual(CLIENTS);
  expect(ledger.requests.unknown + ledger.requests.notSent).toBeGreaterThan(0);
  expect(read.success).toBeGreaterThan(0);
  for (const { proc } of incarnations) expect(proc.stderr()).toBe('');
}, 120_000);

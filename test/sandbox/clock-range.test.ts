/**
 * The sandbox's clock stays on the calendar and inside its range: a time that
 * does not exist, or a move that would take the clock out of range, is refused in one line with
 * the range, and the clock is left as it was; a clock stored out of range (by hand, by an older
 * version) is said as such, never a 500 without a reason.
 */
import { rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOrganisation, createProduct } from '../../src/sandbox/admin.js';
import { buildSandbox } from '../../src/sandbox/app.js';
import { dbPathFor } from '../../src/sandbox/db.js';
import { runCli } from '../helpers/run-cli.js';
import { call, type Org, tempDir } from '../helpers/sandbox.js';

let dataDir: string;
let app: FastifyInstance;
let org: Org;

beforeEach(async () => {
  dataDir = tempDir();
  const made = createOrganisation(dataDir, 'Clock Lender');
  org = { ...made, product_id: createProduct(dataDir, made.org_id, 'Clock Loan').product_id };
  // No `now`: the app follows the data dir's clock, as a started sandbox does.
  app = await buildSandbox({ dbPath: dbPathFor(dataDir) });
});
afterEach(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const sandbox = (...args: string[]) => runCli(['sandbox', ...args, '--data-dir', dataDir]);
const RANGE = /from 1970-01-01T00:00:00Z to 2999-12-31T23:59:59Z/;

async function clockNow(): Promise<string> {
  const shown = await sandbox('clock', '--json');
  expect(shown.exitCode).toBe(0);
  return shown.json<{ now: string }>().now;
}

async function listUsersStatus(): Promise<{ http: number; status: string; message: string }> {
  const reply = await call(app, 'listUsers', { key: org.api_key });
  return { http: reply.http, status: reply.json.status, message: reply.json.message };
}

describe('moves that would leave the range are refused, the clock unchanged', () => {
  for (const duration of ['99999999d', '-999999d', '999999999h']) {
    it(`clock advance ${duration}`, async () => {
      await sandbox('clock', 'set', '2026-01-01T09:00:00Z');
      // `--` so that `-999999d` is not read as a flag; the data dir goes before it.
      const advanced = await runCli(['sandbox', 'clock', 'advance', '--data-dir', dataDir, '--', duration]);
      expect(advanced.exitCode).toBe(2);
      expect(advanced.stderr).toMatch(RANGE);
      expect(advanced.stderr.trim().split('\n')).toHaveLength(1);
      expect((await clockNow()).slice(0, 10)).toBe('2026-01-01');
      expect(await listUsersStatus()).toMatchObject({ http: 200, status: 'success' });
    });
  }

  it('a move to the edge of the range is still accepted', async () => {
    await sandbox('clock', 'set', '2999-12-01T00:00:00Z');
    expect((await sandbox('clock', 'advance', '29d')).exitCode).toBe(0);
    expect((await clockNow()).slice(0, 10)).toBe('2999-12-30');
  });
});

describe('clock set takes only real times inside the range', () => {
  for (const time of [
    '2026-02-30T00:00:00Z',
    '2025-02-29T12:00:00Z',
    '2026-04-31T00:00:00+01:00',
    '2026-01-01T24:00:00Z',
    '2026-01-01T09:60:00Z',
  ]) {
    it(`${time} does not exist: refused, not rolled over`, async () => {
      const set = await sandbox('clock', 'set', time);
      expect(set.exitCode).toBe(2);
      expect(set.stderr).toContain(`"${time}" is not a valid time with its zone`);
      expect(Math.abs(Date.parse(await clockNow()) - Date.now())).toBeLessThan(60_000);
    });
  }

  for (const time of ['3000-01-01T00:00:00Z', '1969-12-31T23:59:59Z', '9999-12-31T23:59:59Z']) {
    it(`${time} is out of range: refused with the range`, async () => {
      const set = await sandbox('clock', 'set', time);
      expect(set.exitCode).toBe(2);
      expect(set.stderr).toMatch(RANGE);
    });
  }

  it('a leap day and a time with an offset are taken', async () => {
    expect((await sandbox('clock', 'set', '2028-02-29T23:30+02:00')).exitCode).toBe(0);
    expect((await clockNow()).slice(0, 16)).toBe('2028-02-29T21:30');
  });
});

describe('a clock stored out of range', () => {
  beforeEach(() => {
    const sqlite = new DatabaseSync(dbPathFor(dataDir));
    sqlite.exec(
      `INSERT INTO sandbox_clock (id, offset_ms) VALUES (1, ${8.64e15}) ON CONFLICT (id) DO UPDATE SET offset_ms = excluded.offset_ms`,
    );
    sqlite.close();
  });

  it('every request says so and what to do, and nothing is written', async () => {
    expect(await listUsersStatus()).toEqual({
      http: 500,
      status: 'error',
      message: expect.stringMatching(/stored clock is out of range.*loanctl sandbox clock reset/),
    });
  });

  it('`clock` says so in one line; `clock reset` mends it', async () => {
    const shown = await sandbox('clock');
    expect(shown.exitCode).toBe(2);
    expect(shown.stderr).toMatch(/stored clock is out of range.*clock reset/);
    expect((await sandbox('clock', 'reset')).exitCode).toBe(0);
    expect(await listUsersStatus()).toMatchObject({ http: 200, status: 'success' });
  });
});

/**
 * The real CLI: `loanctl sandbox start --json --port 0` as a process, the intended flow over real
 * HTTP, a new organisation's key honoured at once, a clean exit on SIGTERM, and a `--help` that
 * never loads the sandbox.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EndpointKey, endpoint, fillPath } from '../../src/contract/endpoints.js';
import { replyProblems } from '../helpers/sandbox.js';
import {
  assertBuilt,
  BIN,
  isolatedEnv,
  loanctl,
  type SandboxProcess,
  startSandboxProcess,
} from '../helpers/sandbox-process.js';

let dataDir: string;
let env: Record<string, string>;
let sandbox: SandboxProcess;

beforeAll(async () => {
  assertBuilt();
  dataDir = mkdtempSync(join(tmpdir(), 'loanctl-e2e-sandbox-'));
  env = isolatedEnv();
  sandbox = await startSandboxProcess(dataDir, env);
});

afterAll(() => {
  if (sandbox && sandbox.process.exitCode === null) sandbox.process.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(env.HOME as string, { recursive: true, force: true });
});

type Json = { status: string; message: string; data: unknown; data1?: unknown };

async function http(
  key: EndpointKey,
  options: {
    apiKey?: string;
    params?: Record<string, number>;
    query?: Record<string, string | number>;
    body?: unknown;
  } = {},
): Promise<{ status: number; json: Json }> {
  const def = endpoint(key);
  const search = new URLSearchParams(
    Object.entries(options.query ?? {}).map(([k, v]): [string, string] => [k, String(v)]),
  );
  const url = `${sandbox.line.url}${fillPath(def.path, options.params ?? {})}${search.size ? `?${search}` : ''}`;
  const response = await fetch(url, {
    method: def.method,
    headers: {
      authorization: `Bearer ${options.apiKey ?? sandbox.line.api_key}`,
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  const json = (await response.json()) as Json;
  if (json.status === 'success') expect(replyProblems(key, json), key).toEqual([]);
  return { status: response.status, json };
}

describe('loanctl sandbox start --json --port 0', () => {
  it('prints exactly one JSON line with url, api_key, org_id and product_id', () => {
    expect(Object.keys(sandbox.line)).toEqual(['url', 'api_key', 'org_id', 'product_id', 'control_key']);
    expect(sandbox.line.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.line.api_key).toMatch(/^sk_sandbox_\w{32}$/);
  });

  it('serves the intended flow over HTTP: user, its id from the list, loan request, bank details, submit, approve', async () => {
    const productId = sandbox.line.product_id;
    const email = 'e2e.borrower@example.com';
    const user = await http('createUser', {
      body: {
        firstname: 'Ada',
        lastname: 'Obi',
        email,
        password: 's3cret!',
        phone: '+2348012345678',
        gender: 'female',
      },
    });
    expect(user.json.status).toBe('success');
    const users = await http('listUsers', { query: { pages: 1 } });
    const userId = (users.json.data as Array<{ id: number; email: string }>).find((u) => u.email === email)?.id;
    expect(userId).toBeGreaterThan(0);

    const created = await http('createLoanRequest', {
      params: { user_id: userId as number },
      query: { 'product-id': productId },
      body: { amount: 250000, purpose: 'restock the shop' },
    });
    expect(created.json.data).toMatchObject({ status: 'saved', lender_status: 'saved', user_status: 'saved' });
    const id = (created.json.data as { id: number }).id;
    const on = { params: { id }, query: { 'product-id': productId } };

    const bank = await http('addBankDetails', { ...on, body: { code: '058', account_name: 'Ada Obi' } });
    expect(bank.json).toMatchObject({ status: 'success', data: null, data1: { id, progress: 'bank_details' } });

    const submitted = await http('submitLoanRequest', on);
    expect(submitted.json).toMatchObject({
      status: 'success',
      data: null,
      data1: { status: 'pending', user_status: 'submitted' },
    });
    expect((submitted.json.data1 as { submitted_at: string }).submitted_at).not.toBe('0001-01-01T00:00:00Z');

    const approved = await http('approveLoanRequest', {
      params: { id },
      query: { action: 'approve', 'product-id': productId },
      body: {
        approved_amount: 200000,
        rate: 4,
        tenure: 6,
        tenured_in: 'months',
        rate_type: 'simple-interest',
        frequency: 'monthly',
        exclude_weekends: false,
        grace_period: 0,
        note: 'e2e',
      },
    });
    expect(approved.json.data).toMatchObject({
      lender_status: 'approved',
      terms: { approved_amount: 200000, estimated_repayment: 248000 },
    });
    const missingDirection = await http('listLoanRequests', { query: { 'product-id': productId } });
    expect(missingDirection).toEqual({
      status: 400,
      json: { status: 'error', message: 'Direction not specified' },
    });
  });

  it('honours at once the key of an organisation made by `sandbox org create` on the same data dir', async () => {
    const before = await http('listUsers', { apiKey: 'sk_sandbox_unknown' });
    expect(before.status).toBe(401);
    const org = await loanctl(
      ['sandbox', 'org', 'create', '--name', 'Second Lender', '--data-dir', dataDir, '--json'],
      env,
    );
    expect(org.exitCode, String(org.stderr)).toBe(0);
    const created = JSON.parse(String(org.stdout)) as { org_id: number; api_key: string };
    expect(created.org_id).toBe(sandbox.line.org_id + 1);
    const list = await http('listUsers', { apiKey: created.api_key });
    expect(list.json).toEqual({ status: 'success', message: 'Users retrieved successfully', data: [] });
    const product = await loanctl(
      [
        'sandbox',
        'product',
        'create',
        '--org',
        String(created.org_id),
        '--name',
        'Asset Finance',
        '--data-dir',
        dataDir,
        '--json',
      ],
      env,
    );
    const { product_id } = JSON.parse(String(product.stdout)) as { product_id: number };
    const loans = await http('listLoanRequests', {
      apiKey: created.api_key,
      query: { 'product-id': product_id, direction: 'ASC' },
    });
    expect(loans.json.data).toEqual({ loan_requests: [], cursor: 0 });
  });

  it('stops cleanly on SIGTERM (exit 0, nothing more on stdout), and a restart prints the same credentials', async () => {
    sandbox.process.kill('SIGTERM');
    const result = await sandbox.process;
    expect(result.exitCode).toBe(0);
    expect(result.signal).toBeUndefined();
    expect(sandbox.rest()).toBe('');
    const again = await startSandboxProcess(dataDir, env);
    try {
      expect({ ...again.line, url: '' }).toEqual({ ...sandbox.line, url: '' });
      const users = await fetch(`${again.line.url}/api/v1/user`, {
        headers: { authorization: `Bearer ${again.line.api_key}` },
      });
      expect(((await users.json()) as { data: unknown[] }).data).toHaveLength(1);
    } finally {
      again.process.kill('SIGINT');
      expect((await again.process).exitCode).toBe(0);
    }
  });

  it('answers a port in use with one line and exit 2', async () => {
    const first = await startSandboxProcess(dataDir, env);
    try {
      const port = new URL(first.line.url).port;
      // Another data dir: the same one would be refused first as already served (its run file).
      const other = mkdtempSync(join(tmpdir(), 'loanctl-e2e-port-'));
      const clash = await loanctl(['sandbox', 'start', '--port', port, '--data-dir', other], env);
      expect(clash.exitCode).toBe(2);
      expect(String(clash.stderr).trim().split('\n')).toEqual([
        `loanctl: Port ${port} on 127.0.0.1 is already in use. Stop what uses it, or pick another port with --port (--port 0 picks a free one).`,
      ]);
    } finally {
      first.process.kill('SIGTERM');
      await first.process;
    }
  });
});

// Node's recursive mkdir spins forever on /proc/x (mkdir answers ENOENT though /proc exists).
describe.skipIf(!existsSync('/proc/self'))('a data dir that cannot be created', () => {
  it('`sandbox start --data-dir /proc/x` (and `org create`) stop at once: exit 2, one line naming it', async () => {
    const { execa } = await import('execa');
    for (const args of [
      ['sandbox', 'start', '--port', '0', '--no-profile', '--data-dir', '/proc/x'],
      ['sandbox', 'org', 'create', '--name', 'Acme', '--data-dir', '/proc/x/y'],
    ]) {
      // The timeout only stops a hung run (the bug) from outliving the test.
      const result = await execa(process.execPath, [BIN, ...args], {
        env,
        extendEnv: false,
        reject: false,
        stdin: 'ignore',
        timeout: 20_000,
      });
      expect(result.timedOut, args.join(' ')).toBe(false);
      expect(result.exitCode, args.join(' ')).toBe(2);
      const lines = String(result.stderr).trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('cannot create /proc/x (no such file or directory)');
    }
  });
});

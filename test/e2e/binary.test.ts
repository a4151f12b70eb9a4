/**
 * The single executable as it ships (`npm run package`), run as a new operator would, with a PATH
 * that has no node on it and nothing of this machine's environment: `--version`, the demo, a
 * background sandbox with a command against it and its dashboard, completion, a bulk file, and
 * `stop`. The pty and keyring tests run against it too (`npm run test:binary`, which CI runs).
 *
 * Skipped, saying so, unless LOANCTL_TEST_BINARY names the binary (test/helpers/cli.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, borrower, loanctlPath, ROOT, TEST_BINARY } from '../helpers/cli.js';

if (!TEST_BINARY)
  console.warn('binary: LOANCTL_TEST_BINARY is not set; skipping (npm run test:binary builds and runs it).');

describe.skipIf(!TEST_BINARY)('the single executable, with no node on PATH', () => {
  let home: string;
  let env: Record<string, string>;
  const binary = TEST_BINARY as string;
  const loanctl = (args: string[], input = '') =>
    execa(binary, args, { env, extendEnv: false, reject: false, input, cwd: home });

  beforeAll(() => {
    assertBuilt();
    home = mkdtempSync(join(tmpdir(), 'loanctl-binary-'));
    // What `env -i` leaves, plus a HOME and a bare PATH: an empty directory.
    env = { HOME: home, PATH: loanctlPath(), TMPDIR: home, NO_COLOR: '1' };
  });
  afterAll(async () => {
    await loanctl(['sandbox', 'stop', '--data-dir', join(home, 'sandbox')]);
    rmSync(home, { recursive: true, force: true });
  });

  it('--version says it is the binary, its commit and the Node it carries', async () => {
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
    const result = await loanctl(['--version']);
    expect(result.stdout).toMatch(new RegExp(`^loanctl ${version} \\(binary, commit \\w+, node 24\\.\\d+\\.\\d+\\)$`));
    expect(result.exitCode).toBe(0);
    expect((await execa('sh', ['-c', 'command -v node'], { env, extendEnv: false, reject: false })).exitCode).not.toBe(
      0,
    );
  });

  it('with a V8 flag in NODE_OPTIONS that refuses its compiled code, it still runs and Node says why (docs/guide.md)', async () => {
    const result = await execa(binary, ['--version'], {
      env: { ...env, NODE_OPTIONS: '--stack-trace-limit=50' },
      extendEnv: false,
      reject: false,
      cwd: home,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^loanctl /);
    expect(result.stderr).toContain('Warning: Code cache data rejected.');
  });

  it('runs the demo: nine steps, the loan approved', async () => {
    const result = await loanctl(['demo', '-o', 'json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const steps = JSON.parse(result.stdout) as Array<{ result: { loan_request?: { lender_status?: string } } }>;
    expect(steps).toHaveLength(9);
    expect(steps.at(-1)?.result.loan_request?.lender_status).toBe('approved');
  });

  it('starts a sandbox in the background, runs commands and a bulk file against it, serves the dashboard, stops it', async () => {
    const dataDir = join(home, 'sandbox');
    const started = await loanctl(['sandbox', 'start', '--detach', '--json', '--port', '0', '--data-dir', dataDir]);
    expect(started.exitCode, started.stderr).toBe(0);
    const { url } = JSON.parse(started.stdout) as { url: string };

    const created = await loanctl(
      ['--profile', 'sandbox', 'user', 'create', ...borrower('ada@example.com'), '--password-stdin', '-o', 'json'],
      'a password',
    );
    expect(created.exitCode, created.stderr).toBe(0);
    const rows = ['bola@example.com', 'chidi@example.com'].map((email) =>
      JSON.stringify({ firstname: 'B', lastname: 'O', email, phone: '08012345678', gender: 'male', password: 'pw' }),
    );
    writeFileSync(join(home, 'users.ndjson'), `${rows.join('\n')}\n`);
    const bulk = await loanctl(['--profile', 'sandbox', 'user', 'create', '--from', 'users.ndjson', '-o', 'json']);
    expect(bulk.exitCode, bulk.stderr).toBe(0);
    // A CSV file too: its parser loads node:stream with import(), which the binary's code cache
    // must leave working (docs/decisions/sea-code-cache.md).
    writeFileSync(
      join(home, 'users.csv'),
      'firstname,lastname,email,phone,gender,password\nD,E,dayo@example.com,08012345679,female,pw\n',
    );
    const csv = await loanctl(['--profile', 'sandbox', 'user', 'create', '--from', 'users.csv', '-o', 'json']);
    expect(csv.exitCode, csv.stderr).toBe(0);
    const listed = await loanctl(['--profile', 'sandbox', 'user', 'list', '-o', 'json']);
    expect((JSON.parse(listed.stdout) as Array<{ email: string }>).map((user) => user.email).sort()).toEqual([
      'ada@example.com',
      'bola@example.com',
      'chidi@example.com',
      'dayo@example.com',
    ]);
    // --jq: the jq the binary carries (its assets, kept in the cache dir), with no jq on PATH.
    const emails = await loanctl(['--profile', 'sandbox', 'user', 'list', '--all', '--jq', '.email']);
    expect(emails.exitCode, emails.stderr).toBe(0);
    expect(emails.stdout.trim().split('\n').sort()).toEqual([
      'ada@example.com',
      'bola@example.com',
      'chidi@example.com',
      'dayo@example.com',
    ]);
    const status = await loanctl(['--profile', 'sandbox', 'status', '--data-dir', dataDir, '--jq', '.sandbox.running']);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(status.stdout).toBe('true');

    const dashboard = await fetch(`${url}/dashboard`, { redirect: 'manual' });
    expect(dashboard.status).toBeLessThan(400);

    const stopped = await loanctl(['sandbox', 'stop', '--data-dir', dataDir]);
    expect(stopped.exitCode, stopped.stderr).toBe(0);
    expect((await loanctl(['sandbox', 'status', '--data-dir', dataDir])).exitCode).toBe(4);
  });

  it('prints shell completion for bash, zsh and fish', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const result = await loanctl(['completion', shell]);
      expect(result.exitCode, shell).toBe(0);
      expect(result.stdout, shell).toContain('loanctl');
    }
  });

  /** The peak RSS (MB) of `loan list --all` over the fake server on `port`, which serves `rowsExpected` rows. */
  const walkPeak = async (port: number, rowsExpected: number) => {
    const walk = execa(binary, ['loan', 'list', '--all', '--direction', 'ASC', '-o', 'ndjson'], {
      env: {
        ...env,
        LOANCTL_BASE_URL: `http://127.0.0.1:${port}`,
        LOANCTL_API_KEY: 'sk_test_walk',
        LOANCTL_PRODUCT_ID: '1',
      },
      extendEnv: false,
      reject: false,
      buffer: false,
    });
    let rows = 0;
    walk.stdout?.on('data', (chunk: Buffer) => {
      for (const byte of chunk) if (byte === 10) rows++;
    });
    // VmHWM is the process's own high-water mark: the last reading before it exits is its peak.
    let peakKb = 0;
    const poll = setInterval(() => {
      try {
        const found = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${walk.pid}/status`, 'utf8'));
        if (found) peakKb = Number(found[1]);
      } catch {}
    }, 20);
    const result = await walk;
    clearInterval(poll);
    expect(result.exitCode).toBe(0);
    expect(rows).toBe(rowsExpected);
    expect(peakKb).toBeGreaterThan(0);
    return peakKb / 1024;
  };

  it.runIf(process.platform === 'linux')(
    "walks 50,000 loan requests of ~3.5 KB (loan list --all) on V8's defaults, streaming: five times the rows hold nothing like five times the memory",
    async () => {
      let pages = 0;
      const PER_PAGE = 50;
      // A loan request as the sandbox lists it (~1 KB), its id and reference made per row.
      const row = (id: number) => ({
        id,
        user_id: 1,
        org_id: 1,
        product_id: 1,
        product_name: 'Walk Loan',
        reference: `LR-WALK-${id}`,
        fullname: 'Borrower Number 1',
        amount: 50_000 + (id % 1000),
        purpose: 'Seeded loan request',
        terms: { approved_amount: 0, rate: 0, tenure: 0, tenured_in: '', rate_type: '', grace_period: 0, note: '' },
        status: 'saved',
        lender_status: 'saved',
        user_status: 'saved',
        declined_at: '0001-01-01T00:00:00Z',
        created_at: '2026-11-25T10:00:00.000Z',
        updated_at: '2026-11-25T10:00:00.000Z',
        note: 'x'.repeat(3000),
      });
      const server = createServer((request, response) => {
        const cursor = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('cursor') ?? 0);
        const first = cursor + 1;
        const rows = first > pages * PER_PAGE ? [] : Array.from({ length: PER_PAGE }, (_, i) => row(first + i));
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            status: 'success',
            message: 'ok',
            data: { loan_requests: rows, cursor: rows.at(-1)?.id ?? 0 },
          }),
        );
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        pages = 200;
        const short = await walkPeak(port, 10_000);
        pages = 1_000;
        const long = await walkPeak(port, 50_000);
        // A guard against holding the rows (50,000 of them are 175 MB of text), not the goal: that
        // a walk's peak is flat in the list's length is measured by the bench (docs/performance.md).
        expect(long).toBeLessThanOrEqual(short * 2);
      } finally {
        server.close();
      }
    },
    300_000,
  );
});
